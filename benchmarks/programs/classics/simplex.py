"""simplex (r7rs-benchmarks src/simplex.scm), the same algorithm in CPython on a
list of lists of floats, loop for loop."""
import sys

EPSILON = 0.000001


def simplex(a, m1, m2, m3):
    if not (m1 >= 0 and m2 >= 0 and m3 >= 0 and len(a) == m1 + m2 + m3 + 2):
        raise ValueError("This shouldn't happen")
    m12 = m1 + m2 + 1
    m = len(a) - 2
    n = len(a[0]) - 1
    l1 = [None] * n
    l2 = [None] * m
    l3 = [None] * m2
    iposv = [None] * m
    izrov = [None] * n
    st = {'nl1': n, 'ip': 0, 'kp': 0, 'bmax': 0.0}
    one = False
    pass2 = True

    def simp1(mm, use_abs):
        st['kp'] = l1[0]
        st['bmax'] = a[mm][st['kp']]
        for k in range(1, st['nl1']):
            v = a[mm][l1[k]]
            if (abs(v) - abs(st['bmax']) if use_abs else v - st['bmax']) > 0:
                st['kp'] = l1[k]
                st['bmax'] = v

    def simp2():
        st['ip'] = 0
        kp = st['kp']
        q1 = 0.0
        flag = False
        for i in range(m):
            row = a[l2[i]]
            if flag:
                if row[kp] < -EPSILON:
                    q = -row[0] / row[kp]
                    if q < q1:
                        st['ip'] = l2[i]
                        q1 = q
                    elif q == q1:
                        qp = q0 = 0.0
                        ip = st['ip']
                        k = 1
                        while k <= n:
                            qp = -a[ip][k] / a[ip][kp]
                            q0 = -row[k] / row[kp]
                            if q0 != qp:
                                break
                            k += 1
                        if q0 < qp:
                            st['ip'] = l2[i]
            elif row[kp] < -EPSILON:
                q1 = -row[0] / row[kp]
                st['ip'] = l2[i]
                flag = True

    def simp3(one):
        ip, kp = st['ip'], st['kp']
        piv = 1.0 / a[ip][kp]
        for ii in range(m + (2 if one else 1)):
            if ii != ip:
                a[ii][kp] = piv * a[ii][kp]
                for kk in range(n + 1):
                    if kk != kp:
                        a[ii][kk] = a[ii][kk] - a[ip][kk] * a[ii][kp]
        for kk in range(n + 1):
            if kk != kp:
                a[ip][kk] = -piv * a[ip][kk]
        a[ip][kp] = piv

    for k in range(n):
        l1[k] = k + 1
        izrov[k] = k
    for i in range(m):
        if a[i + 1][0] < 0:
            raise ValueError("This shouldn't happen")
        l2[i] = i + 1
        iposv[i] = n + i
    for i in range(m2):
        l3[i] = True
    if m2 + m3 > 0:
        for k in range(n + 1):
            total = 0.0
            for i in range(m1 + 1, m + 1):
                total = total + a[i][k]
            a[m + 1][k] = -total
        while True:
            simp1(m + 1, False)
            if st['bmax'] <= EPSILON:
                if a[m + 1][0] < -EPSILON:
                    pass2 = False
                elif a[m + 1][0] <= EPSILON:
                    ip1 = m12
                    while True:
                        if ip1 <= m:
                            if iposv[ip1 - 1] == st['ip'] + n - 1:
                                simp1(ip1, True)
                                if st['bmax'] > 0:
                                    st['ip'] = ip1
                                    one = True
                                    break
                            ip1 += 1
                        else:
                            for i in range(m1 + 1, m12):
                                if l3[i - (m1 + 1)]:
                                    for k in range(n + 1):
                                        a[i][k] = -a[i][k]
                            break
                else:
                    simp2()
                    if st['ip'] == 0:
                        pass2 = False
                    else:
                        one = True
            else:
                simp2()
                if st['ip'] == 0:
                    pass2 = False
                else:
                    one = True
            if not one:
                break
            one = False
            simp3(True)
            ip, kp = st['ip'], st['kp']
            if iposv[ip - 1] >= n + m12 - 1:
                k = 0
                while k < st['nl1'] and kp != l1[k]:
                    k += 1
                st['nl1'] -= 1
                for i in range(k, st['nl1']):
                    l1[i] = l1[i + 1]
                a[m + 1][kp] = a[m + 1][kp] + 1.0
                for i in range(m + 2):
                    a[i][kp] = -a[i][kp]
            elif iposv[ip - 1] >= n + m1 and l3[iposv[ip - 1] - (m1 + n)]:
                l3[iposv[ip - 1] - (m1 + n)] = False
                a[m + 1][kp] = a[m + 1][kp] + 1.0
                for i in range(m + 2):
                    a[i][kp] = -a[i][kp]
            t = izrov[kp - 1]
            izrov[kp - 1] = iposv[ip - 1]
            iposv[ip - 1] = t
    if not pass2:
        return False
    while True:
        simp1(0, False)
        if st['bmax'] > 0:
            simp2()
            if st['ip'] == 0:
                return True
            simp3(False)
            ip, kp = st['ip'], st['kp']
            t = izrov[kp - 1]
            izrov[kp - 1] = iposv[ip - 1]
            iposv[ip - 1] = t
        else:
            return iposv, izrov


def test():
    return simplex([[0.0, 1.0, 1.0, 3.0, -0.5],
                    [740.0, -1.0, 0.0, -2.0, 0.0],
                    [0.0, 0.0, -2.0, 0.0, 7.0],
                    [0.5, 0.0, -1.0, 1.0, -2.0],
                    [9.0, -1.0, -1.0, -1.0, -1.0],
                    [0.0, 0.0, 0.0, 0.0, 0.0]], 2, 1, 1)


def main():
    for _ in range(int(sys.argv[1])):
        result = test()
    print('(' + ' '.join('#(' + ' '.join(map(str, v)) + ')' for v in result) + ')')


main()
