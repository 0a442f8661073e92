"""Everyday script: write a text file, count its words, print the ten most common."""
import sys

VOCABULARY = ('the of and to in is was that for it with as his on be at by had are but from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three').split()


def make_text(n):
    seed, words = 12345, []
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        words.append(VOCABULARY[(seed // 65536) % len(VOCABULARY)])
    words.reverse()
    return ' '.join(words)


def count_words(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


with open('words.txt', 'w') as fh:
    fh.write(make_text(int(sys.argv[1])))
with open('words.txt') as fh:
    counts = count_words(fh.read())
print(len(counts))
for word, n in sorted(counts.items(), key=lambda p: (-p[1], p[0]))[:10]:
    print(word, n)
