"""Everyday script: build records, write them as JSON, read them back, total them."""
import json
import sys


def make_record(i):
    return {'id': i, 'name': 'item-%d' % i, 'price': 25 * ((i * 37) % 400),
            'tags': ['even' if i % 2 == 0 else 'odd', 'g%d' % (i % 5)],
            'stock': {'shelf': i % 9, 'count': (i * 7) % 23}}


n = int(sys.argv[1])
with open('items.json', 'w') as fh:
    fh.write(json.dumps([make_record(i) for i in range(n)], indent=2))
with open('items.json') as fh:
    items = json.loads(fh.read())
by_group = {}
for item in items:
    g = item['tags'][1]
    by_group[g] = item['price'] * item['stock']['count'] + by_group.get(g, 0)
with open('report.json', 'w') as fh:
    fh.write(json.dumps(by_group))
with open('report.json') as fh:
    print(len(items), fh.read())
