"""Run the benchmark families and record them in benchmarks/RESULTS.md.

    python3 benchmarks/run.py                  # every family (what `make bench` runs)
    python3 benchmarks/run.py interp startup   # only these families
    python3 benchmarks/run.py --quick ...      # fewer repetitions (not for the record)
    python3 benchmarks/run.py --no-write ...   # print only

Families: interp, breadth, startup, defrust, native-call, repl, training, wordfreq, fmt, lsp, revisions,
profile, suite. Each runs in its own fresh process (so one family's imports — torch, numba — never weigh
on another's timings), one after the other, never in parallel. Each family's
section of RESULTS.md is replaced by the new run and carries its own command,
date and machine; sections of families not run are kept, and the goals table
at the top is rebuilt from all sections. Text outside the generated sections
(the profile notes) is kept as it is.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, 'RESULTS.md')
sys.path.insert(0, HERE)

from benchlib import goal, md_table  # noqa: E402

TIMEOUT = 420    # seconds per family


# ── Families ─────────────────────────────────────────────────────────────
# name -> (title, script, extra args, kind). kind 'json': the script writes
# --json PATH with 'markdown' and 'goals'; others are parsed from stdout.

FAMILIES = {
    'interp': ('Interpreter workloads vs CPython', 'bench_interp.py', ['--profile'], 'json'),
    'breadth': ('Breadth: 14 workloads vs CPython, list cell size', 'bench_breadth.py', [], 'json'),
    'startup': ('Start-up: `rusty -e 1` vs `python3 -c pass`', 'bench_startup.py', [], 'json'),
    'defrust': ('defrust: native fib(30), compile and cache', 'bench_defrust.py', [], 'defrust'),
    'native-call': ('defrust: per-call overhead from rusty', 'bench_native_call.py', [], 'json'),
    'repl': ('REPL: time to the first prompt', 'bench_repl.py', [], 'repl'),
    'training': ('Training: MLP steps (SGD, Adam) vs PyTorch float64', 'bench_training.py', [], 'training'),
    'wordfreq': ('Scripts: wordfreq.lisp on a 1 MB text', 'bench_wordfreq.py', [], 'json'),
    'fmt': ('Formatter: `fmt-string` on 10,000 lines and growth', 'bench_fmt.py', [], 'json'),
    'lsp': ('Language server: hover on a 5,000-line file', 'bench_lsp.py', [], 'json'),
    'revisions': ('Against the last tree before exact integers', 'bench_revisions.py', ['b98d4c7'], 'json'),
    'profile': ('Profiler: slowdown of a profiled run', 'bench_profile.py', [], 'json'),
    'suite': ('Fresh-process suite: classics, beginner loops, everyday scripts vs CPython',
              'bench_suite.py', [], 'json'),
}
FAMILY_TIMEOUT = {'suite': 3600}     # seconds, where a family needs more than TIMEOUT
ORDER = list(FAMILIES)


def run_family(name, quick):
    """Run one family; (markdown body, goals, problems, command shown)."""
    title, script, extra, kind = FAMILIES[name]
    path = os.path.join(HERE, script)
    if not os.path.exists(path):
        return ('`benchmarks/%s`: not yet available.\n' % script,
                [goal('%s' % title, 'n/a', '', None, 'not yet available')], [],
                'python3 benchmarks/%s' % script)
    args = list(extra) + (['--quick'] if quick else [])
    jpath = None
    if kind == 'json':
        fd, jpath = tempfile.mkstemp(suffix='.json', prefix='rusty-bench-')
        os.close(fd)
        args += ['--json', jpath]
    shown = ' '.join(['python3', 'benchmarks/' + script] + [a for a in args if a != jpath
                                                            and a != '--json'])
    env = dict(os.environ)
    # Time rusty as installed: its bytecode cached, as any user's would be.
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '') if env.get(
        'PYTHONPATH') else ROOT
    t = time.perf_counter()
    limit = FAMILY_TIMEOUT.get(name, TIMEOUT)
    try:
        proc = subprocess.run([sys.executable, path] + args, cwd=ROOT, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=limit)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
        return ('Timed out after %d s. Output so far:\n\n```\n%s\n```\n' % (limit, out),
                [goal(title, 'timed out', '', False)], ['%s timed out' % script], shown)
    finally:
        elapsed = time.perf_counter() - t
    print('  %s: %.0f s, exit %d' % (name, elapsed, proc.returncode), file=sys.stderr)
    problems = []
    if kind == 'json':
        try:
            with open(jpath, encoding='utf-8') as fh:
                data = json.load(fh)
            body, goals, problems = data['markdown'], data['goals'], data.get('problems', [])
        except (OSError, ValueError, KeyError):
            body, goals = fence(proc.stdout), []
            problems = ['%s exited %d without results: %s' % (script, proc.returncode,
                                                              tail(proc.stderr))]
        finally:
            os.unlink(jpath)
    elif kind == 'defrust':
        outs = [proc.stdout]
        for _ in range(DEFRUST_RUNS - 1):
            more = subprocess.run([sys.executable, path] + args, cwd=ROOT, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=TIMEOUT)
            if more.returncode == 0:
                outs.append(more.stdout)
        body, goals = defrust_runs(outs)
    elif kind == 'repl':
        body, goals = repl_result(proc.stdout)
    else:
        body, goals = proc.stdout.strip() + '\n', training_goals(proc.stdout)
    if proc.returncode != 0 and not problems:
        problems = ['`%s` exited %d: %s' % (shown, proc.returncode, tail(proc.stderr))]
    if problems and 'Problems found' not in body:
        body += '\n**Problems found:**\n' + ''.join('- %s\n' % p for p in problems)
    return body, goals, problems, shown


def tail(text, n=600):
    text = (text or '').strip()
    return ('…' + text[-n:]) if len(text) > n else text


def fence(text):
    return '```\n%s\n```\n' % text.rstrip()


# ── Parsing other authors' output ────────────────────────────────────────

UNITS = {'us': 1e-6, 'µs': 1e-6, 'ms': 1e-3, 's': 1.0}


def parse_quantity(text):
    """'1.11x' -> (1.11, 'x'); '-6.8 ms' -> (-0.0068, 's'); None if not one."""
    m = re.match(r'\s*([+-]?\d+(?:\.\d+)?)\s*(x|×|us|µs|ms|s)(?![A-Za-z])', text)
    if not m:
        return None
    v, u = float(m.group(1)), m.group(2)
    if u in ('x', '×'):
        return v, 'x'
    return v * UNITS[u], 's'


def defrust_goals(out):
    """Goal rows of bench_defrust.py's fixed-width table (columns found from
    the header line's positions)."""
    lines = out.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith('defrust') and 'goal' in l), None)
    if head is None:
        return [goal('defrust', 'n/a', '', None, 'table not found')]
    h = lines[head]
    cols = [h.index(c) for c in ('defrust', 'time', 'peer', 'ratio', 'goal')]
    goals = []
    for line in lines[head + 2:]:
        if not line.strip():
            continue
        cells = [line[a:b].strip() for a, b in zip(cols, cols[1:] + [len(line) + 1])]
        name, timec, _peer, ratio, target = cells
        m = re.match(r'(<=|<)\s*(.*)', target)
        if not m:
            continue
        limit = parse_quantity(m.group(2))
        fig = parse_quantity(ratio if limit and limit[1] == 'x' else timec)
        if limit is None or fig is None:
            goals.append(goal('defrust: ' + name, ratio or timec, target, None, 'unparsed'))
            continue
        met = fig[0] <= limit[0] if m.group(1) == '<=' else fig[0] < limit[0]
        shown = ratio if limit[1] == 'x' else timec
        note = ''
        if not met:
            note = 'missed by %.0f%%' % ((fig[0] / limit[0] - 1) * 100)
        if 'per-call' in name:
            note = (note + '; ' if note else '') + 'Native.call from Python'
        goals.append(goal('defrust: ' + name, shown, target.replace('<=', '≤'), met, note))
    return goals


DEFRUST_RUNS = 3


def defrust_runs(outs):
    """bench_defrust.py run several times (its 1.3x goal is within the
    machine's noise): the first table in full, every run's goal figures, and
    the verdict from the median run of each goal."""
    per_run = [defrust_goals(o) for o in outs]
    body = ('bench_defrust.py was run %d times in a row (each run interleaves its own '
            'contenders and keeps the best of several); the first run\'s table:\n\n%s'
            % (len(outs), fence(outs[0])))
    if len(outs) == 1:
        return body, per_run[0]
    goals = []
    rows = []
    for i, g in enumerate(per_run[0]):
        same = [r[i] for r in per_run if i < len(r) and r[i]['name'] == g['name']]
        figs = [parse_quantity(x['figure']) for x in same]
        if any(f is None for f in figs):
            goals.append(g)
            continue
        order = sorted(range(len(same)), key=lambda k: figs[k][0])
        mid = same[order[len(order) // 2]]
        mid = dict(mid, note=('median of %d runs (%s)' % (len(same), ', '.join(
            x['figure'] for x in same))) + ('; ' + mid['note'] if mid['note'] else ''))
        goals.append(mid)
        rows.append((g['name'][len('defrust: '):], ' / '.join(x['figure'] for x in same),
                     mid['figure'], mid['target'],
                     'met' if mid['met'] else '**missed**' if mid['met'] is False else 'n/a'))
    body += ('\nGoal rows over the %d runs (verdict from the median run):\n\n' % len(outs) +
             md_table(('row', 'runs', 'median', 'goal', 'verdict'), rows) + '\n')
    return body, goals


def repl_result(out):
    m = re.search(r'first-prompt-ms:\s*([\d.]+)', out)
    body = fence(out)
    if not m:
        return body, [goal('REPL: time to first prompt', 'n/a', '< 400 ms', None,
                           'no first-prompt-ms line')]
    v = float(m.group(1))
    return body, [goal('REPL: time to first prompt', '%.0f ms' % v, '< 400 ms', v < 400,
                       '' if v < 400 else 'missed by %.0f%%' % ((v / 400 - 1) * 100))]


def training_goals(out):
    """Goal rows from bench_training.py's markdown table: rows with a `goal`
    column and a met/missed (or ✓/✗) column, where it has them."""
    goals = []
    header = None
    for line in out.splitlines():
        if not line.startswith('|'):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if set(''.join(cells)) <= set('-: '):
            continue
        row = dict(zip(header, cells))
        target = next((row[k] for k in row if k.startswith('goal')), '')
        verdict = next((row[k] for k in row if k in ('met', 'met?', 'ok', 'verdict', 'status')),
                       '')
        if not target or target in ('—', '-', ''):
            continue
        v = verdict.lower()
        met = True if v in ('yes', 'met', '✓', 'ok', 'pass') else \
            False if v.startswith(('no', 'miss', '✗', 'fail')) else None
        figure = next((row[k] for k in row if 'speed' in k or 'ratio' in k or '×' in row[k]), '')
        note = ''
        f, t = parse_quantity(figure), parse_quantity(target.lstrip('≥>= '))
        if met is False and f and t and t[0]:
            note = 'missed: %.0f%% of the goal' % (100 * f[0] / t[0])
        goals.append(goal('training: ' + cells[0], figure, target, met, note))
    if not goals:
        goals.append(goal('training', 'see section', '', None, 'no goal rows parsed'))
    return goals


# ── RESULTS.md ───────────────────────────────────────────────────────────

def revision():
    """The commit measured, and whether rusty/ had uncommitted changes."""
    try:
        sha = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT,
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', 'status', '--porcelain', '--', 'rusty'], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        return 'revision unknown'
    if not sha:
        return 'revision unknown'
    return 'rusty at %s%s' % (sha, ' + uncommitted changes in rusty/' if dirty else '')


def machine():
    cpu = ''
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as fh:
            for line in fh:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = '%.2f %.2f %.2f' % os.getloadavg()
    except OSError:
        load = '?'
    rustc = 'none'
    if shutil.which('rustc'):
        rustc = subprocess.run(['rustc', '--version'], capture_output=True,
                               text=True).stdout.strip()
    return ('nproc %d, CPU %s, Python %s, %s, %s; load average at start %s'
            % (os.cpu_count() or 0, cpu or platform.processor() or '?',
               platform.python_version(), platform.system() + ' ' + platform.release(),
               rustc, load))


BEGIN = '<!-- family:%s:begin -->'
END = '<!-- family:%s:end -->'
GOALS = '<!-- goals-json: %s -->'
SUMMARY_BEGIN = '<!-- summary:begin -->'
SUMMARY_END = '<!-- summary:end -->'

SKELETON = """# Benchmark results

Written by `benchmarks/run.py` (`make bench`); see `benchmarks/README.md` for what
each workload measures. Every ratio is measured side by side in one run: the
contenders are interleaved and each side's **minimum** is compared (medians are
shown beside). This machine is shared (2 cores, other sessions running), so
figures move between runs; each section records its own command, date and machine.

%s
%s

""" % (SUMMARY_BEGIN, SUMMARY_END)


def section(name, body, goals, command, when, where):
    title = FAMILIES[name][0]
    return '\n'.join([
        BEGIN % name,
        '## %s' % title,
        '',
        'Command: `%s` (run by `%s`), %s, %s. Machine: %s.' % (command, RUN_COMMAND, when,
                                                               revision(), where),
        '',
        body.rstrip(),
        '',
        GOALS % json.dumps(goals, ensure_ascii=False).replace('--', '\\u002d\\u002d'),
        END % name,
    ]) + '\n'


RUN_COMMAND = 'python3 benchmarks/run.py'


def update_results(new_sections):
    text = SKELETON
    if os.path.exists(RESULTS):
        with open(RESULTS, encoding='utf-8') as fh:
            text = fh.read()
    for name in ORDER:
        if name not in new_sections:
            continue
        block = new_sections[name]
        pat = re.compile(re.escape(BEGIN % name) + '.*?' + re.escape(END % name) + '\n?', re.S)
        if pat.search(text):
            text = pat.sub(lambda _m: block, text)
        else:
            # After the last existing family section that comes before it in ORDER.
            anchor = None
            for prev in ORDER[:ORDER.index(name)]:
                m = re.search(re.escape(END % prev) + '\n?', text)
                if m:
                    anchor = m.end()
            if anchor is None:
                m = re.search(re.escape(SUMMARY_END) + '\n?', text)
                anchor = m.end() if m else len(text)
            text = text[:anchor] + '\n' + block + text[anchor:]
    text = re.sub(re.escape(SUMMARY_BEGIN) + '.*?' + re.escape(SUMMARY_END),
                  lambda _m: SUMMARY_BEGIN + '\n' + summary(text) + '\n' + SUMMARY_END,
                  text, flags=re.S)
    text = re.sub(r'\n{3,}', '\n\n', text)
    with open(RESULTS, 'w', encoding='utf-8') as fh:
        fh.write(text)


def all_goals(text):
    out = []
    for name in ORDER:
        m = re.search(re.escape(BEGIN % name) + '.*?' + re.escape(END % name), text, re.S)
        if not m:
            continue
        g = re.search(r'<!-- goals-json: (.*?) -->', m.group(0), re.S)
        when = re.search(r', (\d{4}-\d\d-\d\d [\d:]+ UTC)', m.group(0))
        if g:
            for item in json.loads(g.group(1)):
                out.append((item, when.group(1) if when else ''))
    return out


def verdict(met):
    return 'met' if met is True else '**missed**' if met is False else 'n/a'


def summary(text):
    rows = [(g['name'], g['figure'], g['target'], verdict(g['met']), g.get('note', ''), when)
            for g, when in all_goals(text)]
    if not rows:
        return '(no results yet)'
    return '## Goals at a glance\n\n' + md_table(
        ('goal', 'figure', 'target', 'verdict', 'note', 'measured'), rows)


# ── Main ─────────────────────────────────────────────────────────────────

def main(argv):
    global RUN_COMMAND
    quick = '--quick' in argv
    write = '--no-write' not in argv
    names = [a for a in argv if not a.startswith('--')]
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        print('unknown famil%s %s; choose from %s' % ('y' if len(unknown) == 1 else 'ies',
                                                    ', '.join(unknown), ', '.join(ORDER)),
              file=sys.stderr)
        return 2
    names = names or ORDER
    RUN_COMMAND = ' '.join(['python3 benchmarks/run.py'] + argv)
    where = machine()
    print('machine: ' + where, file=sys.stderr)
    sections = {}
    problems = []
    for name in names:
        when = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
        print('== %s' % name, file=sys.stderr)
        body, goals, probs, shown = run_family(name, quick)
        problems += ['%s: %s' % (name, p) for p in probs]
        sections[name] = section(name, body, goals, shown, when, where)
        print('\n## %s\n\n%s' % (FAMILIES[name][0], body.rstrip()))
        for g in goals:
            print('  goal: %-55s %-22s %-12s %s %s' % (g['name'], g['figure'], g['target'],
                                                       verdict(g['met']), g.get('note', '')))
        sys.stdout.flush()
    if write and not quick:
        update_results(sections)
        print('\nwrote %s' % os.path.relpath(RESULTS, ROOT), file=sys.stderr)
    elif write and quick:
        print('\n--quick: RESULTS.md not written', file=sys.stderr)
    if problems:
        print('\nproblems:\n' + '\n'.join('  ' + p for p in problems), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
