"""Everyday script: day numbers to ISO dates with weekdays; count Friday-the-13ths."""
import sys

WEEKDAYS = ('Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed')


def civil_from_days(z):
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + 1 if m <= 2 else y), m, d


def iso(day):
    y, m, d = civil_from_days(day)
    return '%d-%02d-%02d %s' % (y, m, d, WEEKDAYS[day % 7])


stamps = [iso(day) for day in range(int(sys.argv[1]))]
print(stamps[0], stamps[-1])
print(sum(1 for s in stamps if s.endswith('-13 Fri')))
