"""ray (r7rs-benchmarks src/ray.scm), the same algorithm in CPython: points and
spheres are 3-element lists; color values are rounded halves away from zero, as
rusty's round does."""
import math
import sys

world = []
EYE = [0.0, 0.0, 200.0]


def sq(x):
    return x * x


def mag(x, y, z):
    return math.sqrt(sq(x) + sq(y) + sq(z))


def unit_vector(x, y, z):
    d = mag(x, y, z)
    return [x / d, y / d, z / d]


def distance(p1, p2):
    return mag(p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2])


def minroot(a, b, c):
    if a == 0:
        return -c / b
    disc = sq(b) - 4.0 * a * c
    if disc < 0:
        return False
    discrt = math.sqrt(disc)
    minus_b = -b
    two_a = 2.0 * a
    return min((minus_b + discrt) / two_a, (minus_b - discrt) / two_a)


def round_half_away(x):
    f = math.floor(x)
    return int(f + 1 if x - f >= 0.5 else f)


def tracer(pathname, res):
    extent = round_half_away(res * 100)
    lines = []
    for y in range(extent):
        for x in range(extent):
            lines.append(str(color_at(-50.0 + float(x) / float(res), -50.0 + float(y) / float(res))))
    with open(pathname, 'w') as fh:
        fh.write('P2 %d %d 255\n' % (extent, extent) + '\n'.join(lines) + '\n')


def color_at(x, y):
    ray = unit_vector(x - EYE[0], y - EYE[1], -EYE[2])
    return round_half_away(sendray(EYE, ray) * 255.0)


def sendray(pt, ray):
    s, hit = first_hit(pt, ray)
    if s is not False:
        return lambert(s, hit, ray) * s[0]
    return 0.0


def first_hit(pt, ray):
    surface, hit, dist = False, False, 1e308
    for s in world:
        h = sphere_intersect(s, pt, ray)
        if h is not False:
            d = distance(h, pt)
            if d < dist:
                surface, hit, dist = s, h, d
    return surface, hit


def lambert(s, hit, ray):
    n = sphere_normal(s, hit)
    return max(0.0, ray[0] * n[0] + ray[1] * n[1] + ray[2] * n[2])


def defsphere(x, y, z, r, c):
    s = [c, r, [x, y, z]]
    world.insert(0, s)
    return s


def sphere_intersect(s, pt, ray):
    xr, yr, zr = ray
    c = s[2]
    n = minroot(sq(xr) + sq(yr) + sq(zr),
                2.0 * ((pt[0] - c[0]) * xr + (pt[1] - c[1]) * yr + (pt[2] - c[2]) * zr),
                sq(pt[0] - c[0]) + sq(pt[1] - c[1]) + sq(pt[2] - c[2]) - sq(s[1]))
    if n is not False:
        return [pt[0] + n * xr, pt[1] + n * yr, pt[2] + n * zr]
    return False


def sphere_normal(s, pt):
    c = s[2]
    return unit_vector(c[0] - pt[0], c[1] - pt[1], c[2] - pt[2])


def ray_test(res, output_file):
    del world[:]
    defsphere(0.0, -300.0, -1200.0, 200.0, 0.8)
    defsphere(-80.0, -150.0, -1200.0, 200.0, 0.7)
    defsphere(70.0, -100.0, -1200.0, 200.0, 0.9)
    for x in range(-2, 3):
        for z in range(2, 8):
            defsphere(float(x) * 200.0, 300.0, float(z) * -400.0, 40.0, 0.75)
    tracer(output_file, res)


def main():
    res, k = float(sys.argv[1]), int(sys.argv[2])
    for _ in range(k):
        ray_test(res, 'ray.pgm')
    with open('ray.pgm') as fh:
        text = fh.read()
    print(len(text), sum(int(v) for v in text.split('\n')[1:] if v))


main()
