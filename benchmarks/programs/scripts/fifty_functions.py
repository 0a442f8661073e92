"""Everyday script: fifty small functions, each called twice."""


def f0(x):
    return x * 0 + 3


def f1(x):
    return x - 1 if x > 1 else x + 1


def f2(x):
    y = x * x
    return (y + 2) % 1000


def f3(x):
    return len(('a b c %s d3' % x).split())


def f4(x):
    return sum([x, 4, 2 * x])


def f5(x):
    return x * 5 + 3


def f6(x):
    return x - 6 if x > 6 else x + 6


def f7(x):
    y = x * x
    return (y + 7) % 1000


def f8(x):
    return len(('a b c %s d8' % x).split())


def f9(x):
    return sum([x, 9, 2 * x])


def f10(x):
    return x * 10 + 3


def f11(x):
    return x - 11 if x > 11 else x + 11


def f12(x):
    y = x * x
    return (y + 12) % 1000


def f13(x):
    return len(('a b c %s d13' % x).split())


def f14(x):
    return sum([x, 14, 2 * x])


def f15(x):
    return x * 15 + 3


def f16(x):
    return x - 16 if x > 16 else x + 16


def f17(x):
    y = x * x
    return (y + 17) % 1000


def f18(x):
    return len(('a b c %s d18' % x).split())


def f19(x):
    return sum([x, 19, 2 * x])


def f20(x):
    return x * 20 + 3


def f21(x):
    return x - 21 if x > 21 else x + 21


def f22(x):
    y = x * x
    return (y + 22) % 1000


def f23(x):
    return len(('a b c %s d23' % x).split())


def f24(x):
    return sum([x, 24, 2 * x])


def f25(x):
    return x * 25 + 3


def f26(x):
    return x - 26 if x > 26 else x + 26


def f27(x):
    y = x * x
    return (y + 27) % 1000


def f28(x):
    return len(('a b c %s d28' % x).split())


def f29(x):
    return sum([x, 29, 2 * x])


def f30(x):
    return x * 30 + 3


def f31(x):
    return x - 31 if x > 31 else x + 31


def f32(x):
    y = x * x
    return (y + 32) % 1000


def f33(x):
    return len(('a b c %s d33' % x).split())


def f34(x):
    return sum([x, 34, 2 * x])


def f35(x):
    return x * 35 + 3


def f36(x):
    return x - 36 if x > 36 else x + 36


def f37(x):
    y = x * x
    return (y + 37) % 1000


def f38(x):
    return len(('a b c %s d38' % x).split())


def f39(x):
    return sum([x, 39, 2 * x])


def f40(x):
    return x * 40 + 3


def f41(x):
    return x - 41 if x > 41 else x + 41


def f42(x):
    y = x * x
    return (y + 42) % 1000


def f43(x):
    return len(('a b c %s d43' % x).split())


def f44(x):
    return sum([x, 44, 2 * x])


def f45(x):
    return x * 45 + 3


def f46(x):
    return x - 46 if x > 46 else x + 46


def f47(x):
    y = x * x
    return (y + 47) % 1000


def f48(x):
    return len(('a b c %s d48' % x).split())


def f49(x):
    return sum([x, 49, 2 * x])


total = 0
total = total + f0(0) + f0(7)
total = total + f1(1) + f1(8)
total = total + f2(2) + f2(9)
total = total + f3(3) + f3(10)
total = total + f4(4) + f4(11)
total = total + f5(5) + f5(12)
total = total + f6(6) + f6(13)
total = total + f7(7) + f7(14)
total = total + f8(8) + f8(15)
total = total + f9(9) + f9(16)
total = total + f10(10) + f10(17)
total = total + f11(11) + f11(18)
total = total + f12(12) + f12(19)
total = total + f13(13) + f13(20)
total = total + f14(14) + f14(21)
total = total + f15(15) + f15(22)
total = total + f16(16) + f16(23)
total = total + f17(17) + f17(24)
total = total + f18(18) + f18(25)
total = total + f19(19) + f19(26)
total = total + f20(20) + f20(27)
total = total + f21(21) + f21(28)
total = total + f22(22) + f22(29)
total = total + f23(23) + f23(30)
total = total + f24(24) + f24(31)
total = total + f25(25) + f25(32)
total = total + f26(26) + f26(33)
total = total + f27(27) + f27(34)
total = total + f28(28) + f28(35)
total = total + f29(29) + f29(36)
total = total + f30(30) + f30(37)
total = total + f31(31) + f31(38)
total = total + f32(32) + f32(39)
total = total + f33(33) + f33(40)
total = total + f34(34) + f34(41)
total = total + f35(35) + f35(42)
total = total + f36(36) + f36(43)
total = total + f37(37) + f37(44)
total = total + f38(38) + f38(45)
total = total + f39(39) + f39(46)
total = total + f40(40) + f40(47)
total = total + f41(41) + f41(48)
total = total + f42(42) + f42(49)
total = total + f43(43) + f43(50)
total = total + f44(44) + f44(51)
total = total + f45(45) + f45(52)
total = total + f46(46) + f46(53)
total = total + f47(47) + f47(54)
total = total + f48(48) + f48(55)
total = total + f49(49) + f49(56)
print(total)
