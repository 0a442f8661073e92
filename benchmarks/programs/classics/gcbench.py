"""gcbench (Ellis, Kovac, Boehm; Clinger's Scheme translation, r7rs-benchmarks
src/gcbench.scm), the same algorithm in CPython: a classNode is a class with four
slots (the record type), the same recursive Populate and MakeTree, the same long-lived
tree and float array, and the same report."""
import sys


class Node:
    __slots__ = ('left', 'right', 'i', 'j')

    def __init__(self, left, right, i, j):
        self.left, self.right, self.i, self.j = left, right, i, j


def run_benchmark2(name, thunk):
    print(name)
    thunk()


def print_diagnostics():
    print(' Total memory available= ???????? bytes  Free memory= ???????? bytes')


def gcbench(k_stretch_tree_depth):
    def tree_size(i):
        return 2 ** (i + 1) - 1

    def num_iters(i):
        return 2 * tree_size(k_stretch_tree_depth) // tree_size(i)

    k_long_lived_tree_depth = k_stretch_tree_depth - 2
    k_array_size = 4 * tree_size(k_long_lived_tree_depth)
    k_min_tree_depth = 4
    k_max_tree_depth = k_long_lived_tree_depth

    def make_empty_node():
        return Node(0, 0, 0, 0)

    def make_node(l, r):
        return Node(l, r, 0, 0)

    def populate(i_depth, this_node):
        if i_depth <= 0:
            return False
        i_depth -= 1
        this_node.left = make_empty_node()
        this_node.right = make_empty_node()
        populate(i_depth, this_node.left)
        return populate(i_depth, this_node.right)

    def make_tree(i_depth):
        if i_depth <= 0:
            return make_empty_node()
        return make_node(make_tree(i_depth - 1), make_tree(i_depth - 1))

    def time_construction(depth):
        i_num_iters = num_iters(depth)
        print('Creating %d trees of depth %d' % (i_num_iters, depth))

        def top_down():
            for _ in range(i_num_iters):
                populate(depth, make_empty_node())
        run_benchmark2('GCBench: Top down construction', top_down)

        def bottom_up():
            for _ in range(i_num_iters):
                make_tree(depth)
        run_benchmark2('GCBench: Bottom up construction', bottom_up)

    def main_part():
        make_tree(k_stretch_tree_depth)
        print(' Creating a long-lived binary tree of depth %d' % k_long_lived_tree_depth)
        long_lived_tree = make_empty_node()
        populate(k_long_lived_tree_depth, long_lived_tree)
        print(' Creating a long-lived array of %d inexact reals' % k_array_size)
        array = [0.0] * k_array_size
        for i in range(k_array_size // 2):
            array[i] = 1.0 / float(i + 1)
        print_diagnostics()
        d = k_min_tree_depth
        while d <= k_max_tree_depth:
            time_construction(d)
            d += 2
        n = min(1000, len(array) // 2 - 1)
        if long_lived_tree is None or array[n] != 1.0 / float(n + 1):
            print('Failed')

    print('Garbage Collector Test')
    print(' Stretching memory with a binary tree of depth %d' % k_stretch_tree_depth)
    print_diagnostics()
    run_benchmark2('GCBench: Main', main_part)
    print_diagnostics()


gcbench(int(sys.argv[1]))
