"""Everyday script: a stock ledger. Write N transactions (purchases and sales of 40
items, prices in cents) as lines of text, read them back, total each item in a
dict and report the most profitable items, the oversold ones and the totals."""
import sys

seed = 42


def random_below(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return (seed // 65536) % n


def transaction(i):
    k = random_below(40)
    kind = 'buy' if random_below(10) < 5 else 'sell'
    qty = 1 + random_below(20)
    price = 150 + k * 37 + random_below(100)
    return '2026-%02d,sku%03d,%s,%d,%d' % (1 + i % 12, k, kind, qty,
                                         price if kind == 'buy' else price + 40)


def make_ledger(n):
    return '\n'.join(transaction(i) for i in range(n))


def money(cents):
    a = abs(cents)
    return '%s$%d.%02d' % ('-' if cents < 0 else '', a // 100, a % 100)


def read_ledger(text):
    items = {}      # sku -> [bought, sold, spent, earned]
    for line in text.split('\n'):
        _month, sku, kind, qty, price = line.split(',')
        v = items.setdefault(sku, [0, 0, 0, 0])
        qty = int(qty)
        total = qty * int(price)
        if kind == 'buy':
            v[0] += qty
            v[2] += total
        else:
            v[1] += qty
            v[3] += total
    return items


def report(items):
    def profit(v):
        return v[3] - v[2]
    by_profit = sorted(items, key=lambda sku: (-profit(items[sku]), sku))
    oversold = sorted(sku for sku, v in items.items() if v[1] > v[0])
    spent = sum(v[2] for v in items.values())
    earned = sum(v[3] for v in items.values())
    for sku in by_profit[:5]:
        v = items[sku]
        print('%-7s %6d %6d %14s' % (sku, v[0], v[1], money(profit(v))))
    print('oversold:', len(oversold), ' '.join(oversold[:3]))
    print('spent', money(spent), 'earned', money(earned), 'net', money(earned - spent))


with open('ledger.csv', 'w') as fh:
    fh.write(make_ledger(int(sys.argv[1])))
with open('ledger.csv') as fh:
    report(read_ledger(fh.read()))
