"""The programs of the fresh-process suite (bench_suite.py): one row each.

A row: group, name, full-size arguments, quick arguments, the expected output
for each (the golden check; the CPython port must print the same). Files are
benchmarks/programs/GROUP/NAME.lisp and NAME.py.
"""

CLASSICS = 'classics'
LOOPS = 'loops'
SCRIPTS = 'scripts'

DERIV = ('(+ (* (* 3 x x) (+ (/ 0 3) (/ 1 x) (/ 1 x))) (* (* a x x) (+ (/ 0 a) (/ 1 x) '
         '(/ 1 x))) (* (* b x) (+ (/ 0 b) (/ 1 x))) 0)')

MATRIX = '((1 1 1 1 1) (1 1 1 1 -1) (1 1 1 -1 1) (1 1 -1 -1 -1) (1 -1 1 -1 -1) (1 -1 -1 1 1))\n((1 1 1 1 1) (1 1 1 1 -1) (1 1 1 -1 1) (1 1 -1 1 -1) (1 -1 1 -1 -1) (1 -1 -1 1 1))\n((1 1 1 1 1) (1 1 1 1 -1) (1 1 1 -1 1) (1 1 -1 1 -1) (1 -1 1 -1 1) (1 -1 -1 1 1))\n((1 1 1 1 1) (1 1 1 1 -1) (1 1 1 -1 1) (1 1 -1 1 1) (1 -1 1 1 -1) (1 -1 -1 -1 1))\n((1 1 1 1 1) (1 1 1 1 -1) (1 1 1 -1 1) (1 1 -1 1 1) (1 -1 1 1 1) (1 -1 -1 -1 -1))'

GCBENCH_14 = 'Garbage Collector Test\n Stretching memory with a binary tree of depth 14\n Total memory available= ???????? bytes  Free memory= ???????? bytes\nGCBench: Main\n Creating a long-lived binary tree of depth 12\n Creating a long-lived array of 32764 inexact reals\n Total memory available= ???????? bytes  Free memory= ???????? bytes\nCreating 2114 trees of depth 4\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 516 trees of depth 6\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 128 trees of depth 8\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 32 trees of depth 10\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 8 trees of depth 12\nGCBench: Top down construction\nGCBench: Bottom up construction\n Total memory available= ???????? bytes  Free memory= ???????? bytes'
GCBENCH_12 = 'Garbage Collector Test\n Stretching memory with a binary tree of depth 12\n Total memory available= ???????? bytes  Free memory= ???????? bytes\nGCBench: Main\n Creating a long-lived binary tree of depth 10\n Creating a long-lived array of 8188 inexact reals\n Total memory available= ???????? bytes  Free memory= ???????? bytes\nCreating 528 trees of depth 4\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 128 trees of depth 6\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 32 trees of depth 8\nGCBench: Top down construction\nGCBench: Bottom up construction\nCreating 8 trees of depth 10\nGCBench: Top down construction\nGCBench: Bottom up construction\n Total memory available= ???????? bytes  Free memory= ???????? bytes'

# (group, name, full args, quick args, full expected, quick expected)
PROGRAMS = [
    (CLASSICS, 'tak', '18 12 6 10', '18 12 6 2', '7', '7'),
    (CLASSICS, 'takl', '18 12 6 1', '12 8 4 1', '7', '5'),
    (CLASSICS, 'fib', '25 2', '20 2', '75025', '6765'),
    (CLASSICS, 'fibfp', '25 1', '20 2', '75025', '6765'),
    (CLASSICS, 'ack', '2 9 200', '2 9 20', '21', '21'),
    (CLASSICS, 'deriv', '20000', '2000', DERIV, DERIV),
    (CLASSICS, 'nqueens', '8 10', '8 2', '92', '92'),
    (CLASSICS, 'primes', '1000 30', '1000 3', '168 997', '168 997'),
    (CLASSICS, 'cpstak', '18 12 6 2', '16 10 4 1', '7', '5'),
    (CLASSICS, 'fft', '1024 4', '512 2', '765.500000 -2.500270 -1.203962', '382.000000 -1.999795 -2.966120'),
    (CLASSICS, 'mbrot', '60 1', '40 1', '5 60007', '5 12100'),
    (CLASSICS, 'triangl', '3 1', '4 1', '(22 34 31 15 7 1 20 17 25 6 5 13 32)', '(22 34 31 15 7 1 20 17 25 6 5 13 32)'),
    (CLASSICS, 'diviter', '1000 500', '1000 50', '500', '500'),
    (CLASSICS, 'divrec', '1000 500', '1000 50', '500', '500'),
    (CLASSICS, 'destruc', '600 50 1', '200 50 1', '((1 1 2) (1 1 1) (1 1 1 2) (1 1 1 1) (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 3))', '((1 1 1 1 1 2) (1 1 1 1 1 1) (1 1 1 1 1 1 1) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 2) (1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3))'),
    (CLASSICS, 'mazefun', '11 11 10', '11 11 2', '(_ * _ _ _ _ _ _ _ _ _)\n(_ * * * * * * * _ * *)\n(_ _ _ * _ _ _ * _ _ _)\n(_ * _ * _ * _ * _ * _)\n(_ * _ _ _ * _ * _ * _)\n(* * _ * * * * * _ * _)\n(_ * _ _ _ _ _ _ _ * _)\n(_ * _ * _ * * * * * *)\n(_ _ _ * _ _ _ _ _ _ _)\n(_ * * * * * * * _ * *)\n(_ * _ _ _ _ _ _ _ _ _)', '(_ * _ _ _ _ _ _ _ _ _)\n(_ * * * * * * * _ * *)\n(_ _ _ * _ _ _ * _ _ _)\n(_ * _ * _ * _ * _ * _)\n(_ * _ _ _ * _ * _ * _)\n(* * _ * * * * * _ * _)\n(_ * _ _ _ _ _ _ _ * _)\n(_ * _ * _ * * * * * *)\n(_ _ _ * _ _ _ _ _ _ _)\n(_ * * * * * * * _ * *)\n(_ * _ _ _ _ _ _ _ _ _)'),
    (CLASSICS, 'paraffins', '19 1', '17 1', '148284', '24894'),
    (CLASSICS, 'puzzle', '511 2', '511 1', '2005', '2005'),
    (CLASSICS, 'boyer', '0 2', '0 1', '95024', '95024'),
    (CLASSICS, 'ray', '0.4 1', '0.25 1', '4742 123863', '1873 48988'),
    (CLASSICS, 'simplex', '500', '100', '(#(4 1 3 2) #(0 5 7 6))', '(#(4 1 3 2) #(0 5 7 6))'),
    (CLASSICS, 'earley', '10 1', '8 1', '4862', '429'),
    (CLASSICS, 'graphs', '5 6', '5 1', '596', '596'),
    (CLASSICS, 'lattice', '33 1000', '33 200', '10', '10'),
    (CLASSICS, 'matrix', '5 5 6', '5 5 1', MATRIX, MATRIX),
    (CLASSICS, 'pnpoly', '10000', '1000', '6', '6'),
    (CLASSICS, 'chudnovsky', '50 500 50 500', '50 500 50 50', '10 501 818301194912', '10 501 818301194912'),
    (CLASSICS, 'quicksort', '10000 1000000 10', '2000 1000000 2', '#t 25 496109 999892', '#t 135 487460 999331'),
    (CLASSICS, 'gcbench', '14', '12', GCBENCH_14, GCBENCH_12),
    (LOOPS, 'toplevel_named_let', '300000', '100000', '8999955000050000', '333328333350000'),
    (LOOPS, 'toplevel_do', '300000', '100000', '20999850000', '2333316668'),
    (LOOPS, 'do_in_function', '3000', '1000', '(2919 216)', '(871 178)'),
    (LOOPS, 'vector_sum', '100000', '30000', '46150000', '13845000'),
    (LOOPS, 'string_build', '20000', '5000', '108890 19998,19999,', '23890 7,4998,4999,'),
    (LOOPS, 'closure_counter', '300000', '100000', '300000', '100000'),
    (LOOPS, 'while_loop', '1000', '300', '13500', '3000'),
    (LOOPS, 'list_accumulate', '300000', '100000', '150000 4499955000100000', '50000 166661666700000'),
    (LOOPS, 'hash_count', '200000', '50000', '49 4124', '49 1031'),
    (LOOPS, 'nested_loops', '500', '200', '641139', '102341'),
    (LOOPS, 'char_loop', '5000', '1000', '55000', '11000'),
    (SCRIPTS, 'config_validator', '3000', '500', '1842 981 name5: empty value | name2995: empty value', '336 134 name5: empty value | debug497: not a boolean'),
    (SCRIPTS, 'csv_summary', '20000', '2000', 'Accra     3318  16501780.68   4973.41   9999.98\nKyoto     3395  16634931.64   4899.83   9999.96\nLima      3381  16829924.37   4977.79   9999.95\nLisbon    3287  16318117.76   4964.44   9996.78\nOslo      3303  16603967.92   5026.94   9998.91\nPerth     3316  16763273.20   5055.27   9995.69', 'Accra      366   1752560.74   4788.42   9916.16\nKyoto      341   1628294.50   4775.06   9999.96\nLima       333   1665635.63   5001.91   9995.67\nLisbon     293   1400618.16   4780.27   9996.78\nOslo       342   1751834.71   5122.32   9998.91\nPerth      325   1654579.43   5091.01   9995.65'),
    (SCRIPTS, 'word_count', '100000', '20000', '144\nother 756\nhis 741\nnew 741\ncome 737\nso 734\nor 731\nwere 731\nwhat 731\nas 730\ngood 727', '144\nfor 167\nnew 166\nnow 165\ninto 162\nso 162\nyou 162\nbut 160\nan 159\nused 157\ndown 156'),
    (SCRIPTS, 'json_roundtrip', '2000', '300', '2000 {"g0": 21467375, "g1": 22171900, "g2": 22163150, "g3": 21544700, "g4": 22212500}', '300 {"g0": 3202750, "g1": 3302675, "g2": 3248575, "g3": 3272000, "g4": 3423300}'),
    (SCRIPTS, 'number_format', '20000', '2000', '    -$3,000,000.00\n    -$2,999,920.81\n    -$2,999,683.24\n379999       -$167,742.50', '    -$3,000,000.00\n    -$2,999,920.81\n    -$2,999,683.24\n37999      $3,443,317.02'),
    (SCRIPTS, 'date_format', '100000', '20000', '1970-01-01 Thu 2243-10-16 Mon\n472', '1970-01-01 Thu 2024-10-03 Thu\n94'),
    (SCRIPTS, 'state_machine', '500', '100', 'ident 3000\nnumber 1500\nstring 1000\npunct 6500', 'ident 600\nnumber 300\nstring 200\npunct 1300'),
    (SCRIPTS, 'fifty_functions', '', '', '27395', '27395'),
    (SCRIPTS, 'log_parser', '20000', '3000', 'ERROR/api 753\nERROR/auth 691\nERROR/cache 784\nERROR/db 726\nERROR/web 1005\nINFO/api 2268\nINFO/auth 2579\nINFO/cache 2496\nINFO/db 2493\nINFO/web 2167\nWARN/api 1033\nWARN/auth 718\nWARN/cache 753\nWARN/db 735\nWARN/web 799\napi 250.27\nauth 246.50\ncache 250.97\ndb 248.58\nweb 249.27\n2026-12-05 00:10:22 INFO db: request 622 took 499ms', 'ERROR/api 115\nERROR/auth 95\nERROR/cache 115\nERROR/db 116\nERROR/web 175\nINFO/api 327\nINFO/auth 396\nINFO/cache 358\nINFO/db 359\nINFO/web 322\nWARN/api 140\nWARN/auth 108\nWARN/cache 117\nWARN/db 120\nWARN/web 137\napi 262.00\nauth 249.57\ncache 253.91\ndb 252.06\nweb 242.15\n2026-12-05 00:10:22 INFO db: request 622 took 499ms'),
    (SCRIPTS, 'text_wrap', '400', '80', '1580 793\nquick for the programs people write', '314 157\nquick for the programs people write'),
    (SCRIPTS, 'roman_numerals', '3999', '1000', '0 MMMDCCCLXXXVIII 3888 MMMCMXCIX', '0 DCCCLXXXVIII 888 M'),
    (SCRIPTS, 'ini_report', '3000', '500', 'sections 3000 enabled 2000 workers 9000\nmissing workers: 334 last svc2997\nlongest timeout: 89s in svc83\nnode0.example    429   3644754\nnode1.example    429   3645627\nnode2.example    429   3646500\nnode3.example    429   3647373\nnode4.example    428   3639246\nnode5.example    428   3638082\nnode6.example    428   3636918', 'sections 500 enabled 333 workers 1492\nmissing workers: 56 last svc495\nlongest timeout: 89s in svc83\nnode0.example     72    611004\nnode1.example     72    611668\nnode2.example     72    612332\nnode3.example     71    604496\nnode4.example     71    604123\nnode5.example     71    603750\nnode6.example     71    603377'),
    (SCRIPTS, 'inventory_ledger', '20000', '2000', 'sku038    2434   2897       $8696.56\nsku027    2269   2667       $5767.37\nsku036    2597   2898       $5726.30\nsku033    2240   2560       $5411.46\nsku037    2743   2987       $5023.40\noversold: 21 sku000 sku002 sku004\nspent $950687.42 earned $1021483.26 net $70795.84', 'sku026     194    441       $3034.95\nsku035     278    432       $2456.34\nsku021     163    338       $1865.01\nsku029     219    351       $1850.73\nsku039     221    316       $1692.94\noversold: 27 sku000 sku002 sku004\nspent $89834.70 earned $105567.37 net $15732.67'),
    (SCRIPTS, 'markdown_to_text', '1500', '300', "lines 18228 words 73603 links 3000\nRELEASE NOTES\n=============\n\nSection 0: the parser\n---------------------\n\nThe CACHE now handles 'prompt' input; see the notes <https://example.org/parser/0> for details.\nIt is faster on compiler heavy work and uses less memory.\n\n  * fixed the vector when EMPTY\n  * 'report' accepts a limit <https://example.org/limit>\n  * documented string\n  * documented prompt", "lines 3648 words 14723 links 600\nRELEASE NOTES\n=============\n\nSection 0: the parser\n---------------------\n\nThe CACHE now handles 'prompt' input; see the notes <https://example.org/parser/0> for details.\nIt is faster on compiler heavy work and uses less memory.\n\n  * fixed the vector when EMPTY\n  * 'report' accepts a limit <https://example.org/limit>\n  * documented string\n  * documented table"),
]


def rows(groups=None):
    """The table's rows, only those of `groups` when given."""
    return [r for r in PROGRAMS if not groups or r[0] in groups]
