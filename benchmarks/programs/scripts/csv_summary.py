"""Everyday script: write a CSV file, then summarise it by city."""
import sys

CITIES = ['Lisbon', 'Oslo', 'Kyoto', 'Lima', 'Accra', 'Perth']


def make_csv(n):
    seed, lines = 7, ['id,city,amount']
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        lines.append('%d,%s,%d.%d' % (i, CITIES[seed % 6], (seed // 7) % 10000, seed % 100))
    return '\n'.join(lines)


def summarise(text):
    table = {}
    for line in text.split('\n')[1:]:
        fields = line.split(',')
        city, amount = fields[1], float(fields[2])
        count, total, top = table.get(city, (0, 0, 0))
        table[city] = (count + 1, total + amount, max(amount, top))
    return table


with open('sales.csv', 'w') as fh:
    fh.write(make_csv(int(sys.argv[1])))
with open('sales.csv') as fh:
    table = summarise(fh.read())
for city in sorted(table):
    count, total, top = table[city]
    print('%-8s %5d %12.2f %9.2f %9.2f' % (city, count, total, total / count, top))
