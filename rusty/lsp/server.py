"""`rusty lsp`: the Language Server Protocol over standard input and output,
with pygls. A face like the REPL: documents are read by the reader, walked
by the analysis (analysis.py), documented by docs.py and formatted by fmt.py;
nothing in them is run except defmacro bodies, to expand their calls, and
those in a restricted worker process (expansion.py).

Positions: the protocol counts UTF-16 code units from 0; spans count
characters from 1. Every conversion goes through `to_range` / `from_position`.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from . import analysis as an
from . import features as feat

LOADED_CACHE = 64       # loaded files whose definitions are kept
MAX_DIAGNOSTICS = 500   # per document, in the order of the text
DEBOUNCE = 0.15         # seconds of quiet after a change before its diagnostics


# ── Positions ────────────────────────────────────────────────────────────

def utf16_len(s: str) -> int:
    return len(s.encode('utf-16-le')) // 2


def to_position(text_lines, line: int, col: int) -> t.Position:
    """1-based (line, character col) -> the protocol's Position."""
    src = text_lines[line - 1] if 0 < line <= len(text_lines) else ''
    return t.Position(line=max(line - 1, 0), character=utf16_len(src[:max(col - 1, 0)]))


def to_range(text_lines, span) -> t.Range:
    return t.Range(start=to_position(text_lines, span.line, span.col),
                   end=to_position(text_lines, span.end_line, span.end_col))


def from_position(text_lines, pos: t.Position) -> tuple[int, int]:
    """The protocol's Position -> 1-based (line, character col)."""
    src = text_lines[pos.line] if pos.line < len(text_lines) else ''
    units = 0
    for i, ch in enumerate(src):
        if units >= pos.character:
            return pos.line + 1, i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return pos.line + 1, len(src) + 1


# ── The server ───────────────────────────────────────────────────────────

class RustyServer(LanguageServer):
    """Holds the starting globals and each open document's latest analysis."""

    def __init__(self):
        super().__init__('rusty', __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental)
        self._known = None
        self.analyses: dict[str, an.Analysis] = {}
        self.pending: dict = {}             # uri -> the timer that will analyse its latest text
        self.loaded: dict[tuple, dict] = {}
        self._stdlib: dict | None = None

    @property
    def known(self) -> an.Globals:
        if self._known is None:
            self._known = an.session_globals()
            self._known.expansions.worker.start()      # ready by the time a document's macro needs it
        return self._known

    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def roots(self) -> list[str]:
        out = []
        for folder in (self.workspace.folders or {}).values():
            p = to_fs_path(folder.uri)
            if p:
                out.append(p)
        if self.workspace.root_path:
            out.append(self.workspace.root_path)
        return out + [os.getcwd()]

    def analyse(self, uri: str, text: str) -> an.Analysis:
        path = self.path_of(uri)
        try:
            a = an.analyse(text, path, self.known, lambda p, rel: self.load_names(p, rel, path),
                           previous=self.analyses.get(uri))
        except Exception as e:          # a bug of ours: say so in the log, keep answering
            logging.getLogger('rusty.lsp').exception('internal error while analysing %s', uri)
            self.window_log_message(t.LogMessageParams(type=t.MessageType.Error,
                                                       message='rusty lsp: internal error: %s: %s'
                                                       % (type(e).__name__, e)))
            a = an.Analysis(text, path)
            a.partial = True
        self.analyses[uri] = a
        return a

    def analysis(self, uri: str) -> an.Analysis:
        a = self.analyses.get(uri)
        doc = self.workspace.get_text_document(uri)
        if a is None or a.text != doc.source:
            a = self.analyse(uri, doc.source)
        return a

    # ── Files named by load ──

    def load_names(self, path: str, relative: bool, doc_file: str, seen=()) -> dict | None:
        """The top-level definitions of a loaded file (and of the files it loads)."""
        for full in an.load_candidates(path, relative, doc_file, self.roots()):
            try:
                st = os.stat(full)
            except OSError:
                continue
            key = (os.path.abspath(full), st.st_mtime_ns, st.st_size)
            if key in self.loaded:
                return self.loaded[key]
            if key[0] in seen:
                return {}
            try:
                with open(full, encoding='utf-8') as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError):
                return None
            nested = lambda p, rel: self.load_names(p, rel, key[0], seen + (key[0],))  # noqa: E731
            # only its top-level names are wanted: its own macros are not run
            a = an.analyse(text, key[0], self.known, nested, budget=an.BUDGET / 4, expanding=0)
            names = dict(a.globals)
            if len(self.loaded) >= LOADED_CACHE:
                self.loaded.pop(next(iter(self.loaded)))
            self.loaded[key] = names
            return names
        return None

    def stdlib_definitions(self) -> dict:
        """Where the standard library defines each of its names."""
        if self._stdlib is None:
            from ..runtime import STDLIB_PATH
            try:
                with open(STDLIB_PATH, encoding='utf-8') as fh:
                    text = fh.read()
                self._stdlib = dict(an.analyse(text, STDLIB_PATH, self.known).globals)
            except OSError:
                self._stdlib = {}
        return self._stdlib


server = RustyServer()
SEVERITY = {'error': t.DiagnosticSeverity.Error, 'warning': t.DiagnosticSeverity.Warning}


def publish(ls: RustyServer, uri: str, a: an.Analysis) -> None:
    lines = a.text.split('\n')
    diags = [t.Diagnostic(range=to_range(lines, d.span), message=d.message, source='rusty',
                          severity=SEVERITY[d.severity]) for d in a.diagnostics[:MAX_DIAGNOSTICS]
             if d.span is not None]
    if a.partial:
        diags.append(t.Diagnostic(range=t.Range(start=t.Position(line=0, character=0),
                                                end=t.Position(line=0, character=0)),
                                  message='rusty: the document is too large to check in full; '
                                          'names after the checked part are not judged',
                                  source='rusty', severity=t.DiagnosticSeverity.Information))
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=diags))


# ── Document sync ────────────────────────────────────────────────────────

@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RustyServer, params: t.DidOpenTextDocumentParams):
    uri = params.text_document.uri
    publish(ls, uri, ls.analyse(uri, ls.workspace.get_text_document(uri).source))


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RustyServer, params: t.DidChangeTextDocumentParams):
    """Analyse once typing pauses for DEBOUNCE seconds (a request in between
    analyses the text it sees, so its answer is current)."""
    uri = params.text_document.uri
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, _publish_current, ls, uri)


def _publish_current(ls: RustyServer, uri: str) -> None:
    ls.pending.pop(uri, None)
    if uri in ls.workspace.text_documents:
        publish(ls, uri, ls.analysis(uri))


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RustyServer, params: t.DidSaveTextDocumentParams):
    ls.loaded.clear()       # a loaded file may be the one saved


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RustyServer, params: t.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ── Hover, completion, signatures ────────────────────────────────────────

def _target(ls: RustyServer, uri: str, pos: t.Position):
    """(analysis, 1-based line, col, the word there, its binding or None)."""
    a = ls.analysis(uri)
    lines = a.text.split('\n')
    line, col = from_position(lines, pos)
    occ = a.occurrence_at(line, col)
    if occ is not None:
        return a, line, col, occ.name, occ.binding or a.globals.get(occ.name), occ.span
    found = feat.word_at(a.text, line, col)
    if found is None:
        return a, line, col, None, None, None
    word, start = found
    d = a.locals_at(line, col).get(word) or a.globals.get(word)
    return a, line, col, word, d, an.Span(a.file, line, start, line, start + len(word))


@server.feature(t.TEXT_DOCUMENT_HOVER)
def hover(ls: RustyServer, params: t.HoverParams):
    a, _line, _col, name, d, span = _target(ls, params.text_document.uri, params.position)
    if name is None:
        return None
    text = feat.describe_definition(d) if d is not None else feat.describe_global(ls.known, name)
    if text is None:
        return None
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                   range=to_range(a.text.split('\n'), span) if span is not None else None)


COMPLETION_KINDS = {'local': t.CompletionItemKind.Variable, 'parameter': t.CompletionItemKind.Variable,
                    'variable': t.CompletionItemKind.Variable, 'function': t.CompletionItemKind.Function,
                    'native': t.CompletionItemKind.Function, 'native function': t.CompletionItemKind.Function,
                    'macro': t.CompletionItemKind.Keyword, 'special': t.CompletionItemKind.Keyword,
                    'builtin': t.CompletionItemKind.Function, 'library function': t.CompletionItemKind.Function,
                    'global variable': t.CompletionItemKind.Variable}


@server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['(']))
def completion(ls: RustyServer, params: t.CompletionParams):
    a = ls.analysis(params.text_document.uri)
    line, col = from_position(a.text.split('\n'), params.position)
    items = [t.CompletionItem(label=name, kind=COMPLETION_KINDS.get(kind, t.CompletionItemKind.Text),
                              detail=detail)
             for name, kind, detail in feat.completions(ls.known, a, line, col)]
    return t.CompletionList(is_incomplete=False, items=items)


@server.feature(t.TEXT_DOCUMENT_SIGNATURE_HELP, t.SignatureHelpOptions(trigger_characters=[' ', '(']))
def signature_help(ls: RustyServer, params: t.SignatureHelpParams):
    a = ls.analysis(params.text_document.uri)
    line, col = from_position(a.text.split('\n'), params.position)
    call = feat.enclosing_call(a.text, line, col)
    if call is None:
        return None
    head, index = call
    found = feat.signature_of(ls.known, a, head)
    if found is None:
        return None
    sig, doc = found
    label = sig.split(' | ')[0]
    params_ = [t.ParameterInformation(label=(s, e)) for s, e in feat.parameters(label)]
    active = min(index, len(params_) - 1) if params_ else 0     # past the last: a rest parameter's
    return t.SignatureHelp(signatures=[t.SignatureInformation(
        label=label, documentation=t.MarkupContent(kind=t.MarkupKind.Markdown, value=doc or ''),
        parameters=params_)], active_signature=0, active_parameter=active)


# ── Definition, symbols ──────────────────────────────────────────────────

def _location(ls: RustyServer, d: an.Definition) -> t.Location | None:
    if d.span is None:
        return None
    path = d.span.file
    uri = from_fs_path(path) if os.path.isabs(path) else path
    text = None
    for u, a in ls.analyses.items():
        if ls.path_of(u) == path:
            text, uri = a.text, u
    if text is None:
        try:
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            text = ''
    return t.Location(uri=uri, range=to_range(text.split('\n'), d.span))


@server.feature(t.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RustyServer, params: t.DefinitionParams):
    a, line, col, name, d, _span = _target(ls, params.text_document.uri, params.position)
    if name is None:
        return None
    if d is None or d.span is None:
        d = a.globals.get(name)
    if d is None:
        for p, span, rel in a.loads:
            names = ls.load_names(p, rel, a.file)
            if names and name in names:
                d = names[name]
                break
    if d is None:
        d = ls.stdlib_definitions().get(name)
    return _location(ls, d) if d is not None else None


SYMBOL_KINDS = {'function': t.SymbolKind.Function, 'variable': t.SymbolKind.Variable,
                'macro': t.SymbolKind.Function, 'native': t.SymbolKind.Function}


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RustyServer, params: t.DocumentSymbolParams):
    a = ls.analysis(params.text_document.uri)
    lines = a.text.split('\n')
    return [t.DocumentSymbol(name=d.name, kind=SYMBOL_KINDS.get(d.kind, t.SymbolKind.Variable),
                             detail=d.sig or '', range=to_range(lines, d.form_span),
                             selection_range=to_range(lines, d.span))
            for d in a.symbols if d.span is not None]


# ── Formatting ───────────────────────────────────────────────────────────

@server.feature(t.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RustyServer, params: t.DocumentFormattingParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = doc.source
    new = feat.format_document(text, ls.path_of(params.text_document.uri))
    if new is None or new == text:
        return [] if new is not None else None
    lines = text.split('\n')
    end = t.Position(line=len(lines) - 1, character=utf16_len(lines[-1]))
    return [t.TextEdit(range=t.Range(start=t.Position(line=0, character=0), end=end), new_text=new)]


@server.feature(t.TEXT_DOCUMENT_RANGE_FORMATTING)
def range_formatting(ls: RustyServer, params: t.DocumentRangeFormattingParams):
    a = ls.analysis(params.text_document.uri)
    first = params.range.start.line + 1
    last = params.range.end.line + (1 if params.range.end.character > 0 else 0)
    found = feat.format_range(a, first, max(first, last))
    if found is None:
        return None
    lo, hi, new = found
    lines = a.text.split('\n')
    old = '\n'.join(lines[lo - 1:hi]) + '\n'
    if old == new:
        return []
    if hi < len(lines):
        end = t.Position(line=hi, character=0)
    else:
        end = t.Position(line=hi - 1, character=utf16_len(lines[hi - 1]))
        new = new[:-1] if not a.text.endswith('\n') else new
    return [t.TextEdit(range=t.Range(start=t.Position(line=lo - 1, character=0), end=end), new_text=new)]


def serve() -> int:
    """Serve on standard input and output until the client says exit; the
    exit status the protocol asks for (0 after a shutdown request, else 1)."""
    try:
        server.start_io()
    finally:
        if server._known is not None:
            server._known.expansions.close()
    sys.stdout = open(os.devnull, 'w')      # the protocol's writer closed the real one
    return 0 if getattr(server.protocol, '_shutdown', False) else 1
