"""Services are the only writers: every module of ``clubrating`` is read with ``ast`` and every
write to the database found in it (an ORM write: ``save``, ``delete``, ``create``,
``bulk_create``, ``bulk_update``, ``update``, ``get_or_create``, ``update_or_create``, a related
manager's ``add``/``remove``/``clear``/``set``; or raw SQL that inserts, updates, deletes or
changes the schema; ``call_command`` of ``migrate``, ``flush`` or ``loaddata``) must stand in a
place :data:`WRITERS` allows for its table. A write in the web views, the commands, the reads or
anywhere else fails, naming the file, the line and the model (docs/architecture.md, "Who writes
what").

The checker names the model written from the code itself: ``Member.objects.filter(...)``, a
variable assigned from one or annotated ``member: Member``, a loop over a queryset, a related
manager (``tournament.entries``, through the models' own relations), a table named in SQL
(``f"DELETE FROM {_table(RatingChange)}"``), and a helper's parameter followed to its callers
in the same module (``_insert(CurrentRating, ...)``). A write whose model it cannot name counts
as a write of every table (:data:`ANY`).

What no line of ours calls is not seen: the rows a delete takes with it (``on_delete=CASCADE``:
a deleted tournament's games, their analyses and ledger rows, inside the service's transaction,
whose rebuild follows), and what Django and django-axes write for a login (the session, the
user's last login, a failed attempt) when the web's login views call them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.apps import apps

SRC = Path(__file__).resolve().parents[1] / "src" / "clubrating"

ANY = "*"
"""The model of a write the checker cannot name: allowed only where every table may be written."""

SERVICES = ("club/services/",)
DERIVED = ("club/derived/",)
JOBS = ("club/jobs/",)
MIGRATIONS = "club/store/migrations/"  # data migrations write whatever their change needs
SOURCE_ROWS = """Club Member Tournament Entry Game Bye Merge Distinct InitialEntry Evening
EveningPlayer EveningBoard MovesLink MovesSubmission ResultSubmission MovesAttempt User
FrozenList FrozenRow""".split()

WRITERS: dict[str, tuple[str, ...]] = {
    # the club's history and settings, and what the arbiters and the phones send: the services
    # (User: the arbiters' logins, services/accounts.py and the archive's import)
    **dict.fromkeys(SOURCE_ROWS, SERVICES),
    # the audit log: the helper every service calls (store/audit.py, ``record``), and the
    # services that write many entries at once (linking a tournament's names)
    "AuditEntry": ("club/store/audit.py", *SERVICES),
    # derived from the history, rebuilt and never edited: the replays of club/derived/
    "RatingChange": DERIVED,
    "CurrentRating": DERIVED,
    "RebuildLog": DERIVED,
    "CpiEntry": DERIVED,
    # the club's mark of the CPI rules its ledger was scored by (Club.cpi_scored_with, a derived
    # column), set by the ledger's rebuild and its check after an upgrade
    "Club": (*SERVICES, "club/derived/ledger.py"),
    # the engine's work: the analysis jobs; the ledger's rebuild marks the games too short to
    # score under its scoring key (GameAnalysis.unscored_with, a derived column); a correction
    # of a game's moves deletes the analysis of the old moves
    "GameAnalysis": (*JOBS, *DERIVED, "club/services/moves.py"),
    "PositionSearch": JOBS,
    "DBTaskResult": JOBS,  # django-tasks' queue: the leases requeue a dead worker's jobs
    # the engine's search cache in a SQLite file of its own, not the club's database
    "searches": ("analysis/cache.py",),
    # the database's lineage token, drawn anew by a restore (the page cache's keys hold it)
    "Lineage": ("club/ops/",),
    # the schema: a restore replaces the whole database (tables dropped, databases made and
    # dropped); the first command on a new database migrates it (djangoenv.py)
    "database": ("club/ops/", "djangoenv.py"),
    # rows of whatever table an archive holds, read back in (services/archive.py); the names
    # linked, a tournament's entries or the initial list's rows as the caller says (linking);
    # the empty tables ``migrate`` made, dropped before a PostgreSQL dump is restored (ops)
    ANY: ("club/services/archive.py", "club/services/linking.py", "club/ops/"),
}
"""Model (class name; or a table of no model) -> the places that may write it: a folder of
``src/clubrating`` ending in ``/`` or one module. Migrations may write every table."""

ORM_WRITES = {"save", "delete", "create", "update", "get_or_create", "update_or_create"}
ORM_ONLY = {"bulk_create", "bulk_update", "get_or_create", "update_or_create"}
RELATED_WRITES = {"add", "remove", "clear", "set"}
QUERYSET = set(
    """filter exclude all order_by select_related prefetch_related select_for_update only defer
    distinct annotate alias using none reverse""".split()
)
INSTANCE = {"get", "first", "last", "latest", "earliest", "create", "create_user"}
CONTAINERS = {"list", "tuple", "set", "frozenset", "Sequence", "Iterable", "Iterator"}
CONTAINERS |= {"Collection", "sorted", "reversed", "iter"}
MANAGERS = {"QuerySet", "Manager", "BaseManager", "RelatedManager"}
COMMANDS = {"migrate": "database", "flush": ANY, "loaddata": ANY}  # call_command's writers
SQL_WRITE = re.compile(
    r"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|"
    r"(?:DROP|ALTER|CREATE)\s+TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?|(?:DROP|CREATE)\s+DATABASE"
    r"(?:\s+IF\s+EXISTS)?)\s+([\"`\w\x00]+)",
    re.IGNORECASE,
)
SLOT = re.compile(r"\x00(\d+)\x00")

MODELS = {m.__name__: m for m in apps.get_models(include_auto_created=False)}
TABLES = {m._meta.db_table: name for name, m in MODELS.items()}


def _relations(model: type) -> dict[str, tuple[str, str]]:
    """Accessor -> (kind, model written through it): a forward key gives its row, a reverse key
    a manager of the related rows, a many-to-many a manager whose writes are the declaring
    model's (its link table)."""
    found = {}
    for f in model._meta.get_fields():  # type: ignore[attr-defined]
        target = f.related_model
        if target is None or isinstance(target, str):
            continue
        if f.many_to_many:
            owner = model if not f.auto_created else target
            name = f.get_accessor_name() if f.auto_created else f.name
            found[name] = ("manager", owner.__name__)
        elif f.auto_created:  # a reverse key: member.entries, game.analysis
            kind = "instance" if f.one_to_one else "manager"
            found[f.get_accessor_name()] = (kind, target.__name__)
        else:
            found[f.name] = ("instance", target.__name__)
    return found


RELATIONS = {name: _relations(m) for name, m in MODELS.items()}


@dataclass(frozen=True)
class Type:
    kind: str  # class, manager, queryset, instance, rows, pair, param
    model: str  # a model's name, ANY, or (kind param) the parameter's name


@dataclass(frozen=True)
class Write:
    path: str  # relative to src/clubrating
    line: int
    model: str
    text: str

    def __str__(self) -> str:
        return f"src/clubrating/{self.path}:{self.line}: {self.text} (writes {self.model})"


def allowed(write: Write) -> bool:
    if write.path.startswith(MIGRATIONS):
        return True
    places = WRITERS.get(write.model, ())
    return any(write.path == p or (p.endswith("/") and write.path.startswith(p)) for p in places)


@dataclass
class Scope:
    """A function (or the module): its parameters and what each name is assigned."""

    node: ast.AST
    params: dict[str, ast.expr | None] = field(default_factory=dict)
    bindings: dict[str, list[tuple[ast.AST, ast.expr | None]]] = field(default_factory=dict)
    outer: Scope | None = None


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not of the functions and classes inside it."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield child
            yield from _own_nodes(child)


def _inner_functions(node: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions defined right inside ``node`` (methods of its classes included)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield child
        elif not isinstance(child, ast.Lambda):
            yield from _inner_functions(child)


def _bind(scope: Scope, target: ast.expr, how: ast.AST, value: ast.expr | None) -> None:
    if isinstance(target, ast.Name):
        scope.bindings.setdefault(target.id, []).append((how, value))
    elif isinstance(target, ast.Tuple | ast.List):
        for position, element in enumerate(target.elts):
            # ``obj, created = X.objects.get_or_create(...)``: the first is the row
            item = ast.Subscript(value, ast.Constant(position)) if value is not None else None
            _bind(scope, element, how, item)


def _scope(node: ast.AST, outer: Scope | None) -> Scope:
    scope = Scope(node, outer=outer)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        arguments = node.args
        for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            scope.params[a.arg] = a.annotation
    for child in _own_nodes(node):
        if isinstance(child, ast.Assign):
            for target in child.targets:
                _bind(scope, target, child, child.value)
        elif isinstance(child, ast.AnnAssign):
            _bind(scope, child.target, child, child.value)
        elif isinstance(child, ast.For | ast.comprehension):
            _bind(scope, child.target, child, child.iter)
        elif isinstance(child, ast.withitem) and child.optional_vars is not None:
            _bind(scope, child.optional_vars, child, child.context_expr)
        elif isinstance(child, ast.NamedExpr):
            _bind(scope, child.target, child, child.value)
    return scope


def _annotation(node: ast.expr | None) -> Type | None:
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _annotation(ast.parse(node.value, mode="eval").body)
    if isinstance(node, ast.Name | ast.Attribute):
        name = _annotation_name(node)
        if name in MANAGERS:  # a bare ``QuerySet``: rows of some model
            return Type("queryset", ANY)
        return Type("instance", name) if name in MODELS else None
    if isinstance(node, ast.BinOp):  # Member | None
        return _annotation(node.left) or _annotation(node.right)
    if isinstance(node, ast.Subscript):
        outer = _annotation_name(node.value)
        inner = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
        found = _annotation(inner)
        if outer in MANAGERS:  # QuerySet[Member], QuerySet[Any]
            return Type("queryset", found.model if found else ANY)
        if found is None:
            return None
        if outer == "type":
            return Type("class", found.model)
        if outer in CONTAINERS:
            return Type("rows", found.model)
    return None


def _annotation_name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


class Module:
    """One module's writes, each with the model it writes."""

    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.source = source
        self.tree = ast.parse(source)
        self.scopes: dict[ast.AST, Scope] = {}
        self._collect(self.tree, None)

    def _collect(self, node: ast.AST, outer: Scope | None) -> None:
        scope = _scope(node, outer)
        self.scopes[node] = scope
        for child in _inner_functions(node):
            self._collect(child, scope)

    # -- what an expression is -------------------------------------------------------------

    def type_of(self, node: ast.expr, scope: Scope, depth: int = 0) -> Type | None:
        if depth > 12:
            return None
        deeper = depth + 1
        if isinstance(node, ast.Name):
            return self._name(node.id, scope, deeper)
        if isinstance(node, ast.Attribute):
            owner = self.type_of(node.value, scope, deeper)
            if owner is None:  # models.Member, a model through its module
                return Type("class", node.attr) if node.attr in MODELS else None
            if owner.kind == "class" and node.attr in ("objects", "_default_manager"):
                return Type("manager", owner.model)
            if owner.kind == "instance" and owner.model in RELATIONS:
                kind_model = RELATIONS[owner.model].get(node.attr)
                return Type(*kind_model) if kind_model else None
            return None
        if isinstance(node, ast.Subscript):
            owner = self.type_of(node.value, scope, deeper)
            if owner is not None and owner.kind == "pair":
                index = node.slice
                first = isinstance(index, ast.Constant) and index.value == 0
                return Type("instance", owner.model) if first else None
            if owner is not None and owner.kind in ("queryset", "rows"):
                sliced = isinstance(node.slice, ast.Slice)
                return Type("queryset" if sliced else "instance", owner.model)
            return None
        if isinstance(node, ast.Call):
            return self._call(node, scope, deeper)
        return None

    def _name(self, name: str, scope: Scope, depth: int) -> Type | None:
        here: Scope | None = scope
        while here is not None:
            if name in here.params:
                return _annotation(here.params[name]) or Type("param", name)
            for how, value in here.bindings.get(name, []):
                found = _annotation(how.annotation) if isinstance(how, ast.AnnAssign) else None
                if found is None and value is not None:
                    found = self.type_of(value, here, depth)
                    if found is not None and isinstance(how, ast.For | ast.comprehension):
                        found = Type("instance", found.model) if found.kind != "param" else None
                if found is not None:
                    return found
            if name in here.bindings:
                return None
            here = here.outer
        return Type("class", name) if name in MODELS else None

    def _call(self, node: ast.Call, scope: Scope, depth: int) -> Type | None:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id == "get_user_model":
                return Type("class", "User")
            called = self._name(func.id, scope, depth)
            if called is not None and called.kind == "class":  # Member(...), logins(...)
                return Type("instance", called.model)
            if func.id in RETURNS:  # evening = evening_of(tournament)
                return RETURNS[func.id]
            if func.id in CONTAINERS and node.args:
                inner = self.type_of(node.args[0], scope, depth)
                return Type("rows", inner.model) if inner and inner.kind != "param" else None
            return None
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr == "get_model" and len(node.args) == 2:  # apps.get_model("club", "Member")
            named = node.args[1]
            if isinstance(named, ast.Constant) and named.value in MODELS:
                return Type("class", named.value)
            return None
        owner = self.type_of(func.value, scope, depth)
        if owner is None or owner.kind not in ("manager", "queryset"):
            return None
        if func.attr in QUERYSET:
            return Type("queryset", owner.model)
        if func.attr in INSTANCE:
            return Type("instance", owner.model)
        if func.attr in ("get_or_create", "update_or_create"):
            return Type("pair", owner.model)
        return None

    # -- the writes ----------------------------------------------------------------------------

    def writes(self) -> list[Write]:
        found: list[Write] = []
        for node, scope in self.scopes.items():
            for child in _own_nodes(node):
                if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                    found += self._write(child, scope)
                elif isinstance(child, ast.Call) and _annotation_name(child.func) == "call_command":
                    found += self._command(child, scope)
        return sorted(set(found), key=lambda w: (w.line, w.model))

    def _write(self, call: ast.Call, scope: Scope) -> list[Write]:
        func = call.func
        assert isinstance(func, ast.Attribute)
        method = func.attr
        if method in ("execute", "executemany") and call.args:
            return [
                w
                for model in self._sql_models(call.args[0], scope)
                for w in self._resolve(call, scope, model, set())
            ]
        if method not in ORM_WRITES | ORM_ONLY | RELATED_WRITES:
            return []
        owner = self.type_of(func.value, scope)
        if owner is None:
            # a receiver of no known model: ORM-only methods, and ``.save()``, are still writes
            if method not in ORM_ONLY | {"save"}:
                return []
            owner = Type("instance", ANY)
        if owner.kind == "param" and method not in ORM_ONLY | {"save"}:
            return []  # ``values.update(...)`` of a parameter that is no model's
        if method in RELATED_WRITES and owner.kind != "manager":
            return []
        if method == "save" and owner.kind not in ("instance", "param"):
            return []
        if owner.kind == "class":
            return []
        return self._resolve(call, scope, owner, set())

    def _command(self, call: ast.Call, scope: Scope) -> list[Write]:
        """``call_command("migrate")`` changes the schema; ``flush``, ``loaddata`` write rows."""
        named = call.args[0] if call.args else None
        command = named.value if isinstance(named, ast.Constant) else None
        model = COMMANDS.get(command) if isinstance(command, str) else ANY
        return self._resolve(call, scope, Type("instance", model), set()) if model else []

    def _resolve(self, call: ast.Call, scope: Scope, owner: Type, seen: set[str]) -> list[Write]:
        """The write's model; a helper's parameter is followed to the helper's callers."""
        text = " ".join((ast.get_source_segment(self.source, call) or "").split())[:90]
        if owner.kind != "param":
            return [Write(self.path, call.lineno, owner.model, text)]
        function = scope.node
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or (
            function.name in seen
        ):
            return [Write(self.path, call.lineno, ANY, text)]
        names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        position = names.index(owner.model) if owner.model in names else None
        if names and names[0] in ("self", "cls") and position is not None:
            position -= 1
        found: list[Write] = []
        for caller, caller_scope in self._callers(function.name):
            given = [k.value for k in caller.keywords if k.arg == owner.model]
            if position is not None and position < len(caller.args):
                given.append(caller.args[position])
            for g in given:
                model = self.type_of(g, caller_scope) or Type("instance", ANY)
                followed = self._resolve(caller, caller_scope, model, seen | {function.name})
                found += [Write(self.path, call.lineno, w.model, text) for w in followed]
        return found or [Write(self.path, call.lineno, ANY, text)]

    def _callers(self, name: str) -> Iterator[tuple[ast.Call, Scope]]:
        for node, scope in self.scopes.items():
            for child in _own_nodes(node):
                if isinstance(child, ast.Call) and _annotation_name(child.func) == name:
                    yield child, scope

    # -- raw SQL -------------------------------------------------------------------------------

    def _sql_models(self, node: ast.expr, scope: Scope) -> list[Type]:
        """The tables a statement writes (as models' types), none for a read."""
        texts = self._texts(node, scope, 0)
        if texts is None:  # the statement cannot be read: it may write anything
            return [Type("instance", ANY)]
        found: list[Type] = []
        for text, slots in texts:
            for match in SQL_WRITE.finditer(text):
                verb, table = match.group(0).split()[0].upper(), match.group(1).strip('"`')
                if "DATABASE" in match.group(0).upper():
                    found.append(Type("instance", "database"))
                elif (slot := SLOT.fullmatch(table)) is not None:
                    found += self._slot_models(slots[int(slot.group(1))], scope)
                elif verb in ("UPDATE",) and table.upper() in ("SET", "OF", "NOWAIT"):
                    continue  # FOR UPDATE / FOR NO KEY UPDATE: a lock, not a write
                else:
                    found.append(Type("instance", TABLES.get(table, table)))
        return found

    def _slot_models(self, slot: ast.expr, scope: Scope) -> list[Type]:
        """The model named inside ``{_table(Model)}`` or ``{Model._meta.db_table}``."""
        if isinstance(slot, _Scoped):
            slot, scope = slot.value, slot.scope
        for node in ast.walk(slot):
            if isinstance(node, ast.Name):
                found = self.type_of(node, scope)
                if found is not None and found.kind in ("class", "param", "instance"):
                    return [Type("param", found.model) if found.kind == "param" else found]
        return [Type("instance", ANY)]

    def _texts(
        self, node: ast.expr, scope: Scope, depth: int
    ) -> list[tuple[str, list[ast.expr]]] | None:
        """The statement's possible texts, each value put in as a numbered slot."""
        if depth > 8:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [(node.value, [])]
        if isinstance(node, ast.JoinedStr):
            text, slots = "", []
            for part in node.values:
                if isinstance(part, ast.Constant):
                    text += str(part.value)
                elif isinstance(part, ast.FormattedValue):
                    text += f"\x00{len(slots)}\x00"
                    slots.append(part.value)
            return [(text, slots)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self._texts(node.left, scope, depth + 1)
            right = self._texts(node.right, scope, depth + 1) or [("\x000\x00", [node.right])]
            if left is None:
                return None
            out = []
            for lt, ls in left:
                for rt, rs in right:
                    shift = len(ls)
                    rt = SLOT.sub(lambda m, n=shift: f"\x00{int(m.group(1)) + n}\x00", rt)
                    out.append((lt + rt, ls + rs))
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return self._texts(node.left, scope, depth + 1)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "format":
                return self._texts(node.func.value, scope, depth + 1)
            if node.func.attr == "sql_with_params":  # a compiled queryset: a SELECT
                return [("SELECT", [])]
        if isinstance(node, ast.Subscript):  # ``sql, params = qs.query.sql_with_params()``
            return self._texts(node.value, scope, depth + 1)
        if isinstance(node, ast.Name):
            return self._name_texts(node.id, scope, depth)
        if isinstance(node, ast.Attribute) and _annotation_name(node.value) in ("self", "cls"):
            return self._name_texts(node.attr, self.scopes[self.tree], depth)  # a class constant
        return None

    def _name_texts(
        self, name: str, scope: Scope, depth: int
    ) -> list[tuple[str, list[ast.expr]]] | None:
        here: Scope | None = scope
        while here is not None:
            if name in here.params and isinstance(here.node, ast.FunctionDef):
                return self._param_texts(here.node, name, depth)
            if name in here.bindings:
                out: list[tuple[str, list[ast.expr]]] = []
                for _, value in here.bindings[name]:
                    texts = self._texts(value, here, depth + 1) if value is not None else None
                    if texts is None:
                        return None
                    out += texts
                return out
            here = here.outer
        return None

    def _param_texts(
        self, function: ast.FunctionDef, name: str, depth: int
    ) -> list[tuple[str, list[ast.expr]]] | None:
        """A statement passed in: the texts the module's callers pass (a slot's model is then
        read in the caller's scope; the helpers of this code base pass SQL with its tables)."""
        names = [a.arg for a in function.args.args]
        position = names.index(name)
        out: list[tuple[str, list[ast.expr]]] = []
        callers = list(self._callers(function.name))
        for caller, caller_scope in callers:
            given = [k.value for k in caller.keywords if k.arg == name]
            given += caller.args[position : position + 1]
            for g in given:
                texts = self._texts(g, caller_scope, depth + 1)
                if texts is None:
                    return None
                out += [(t, [_Scoped(s, caller_scope) for s in slots]) for t, slots in texts]
        return out if callers else None


class _Scoped(ast.expr):
    """A slot read in its caller's scope."""

    def __init__(self, value: ast.expr, scope: Scope) -> None:
        super().__init__()
        self.value, self.scope = value, scope


def _returns() -> dict[str, Type]:
    """Functions of ``clubrating`` by name -> the model row they return, where every function of
    that name agrees (``def evening_of(tournament: Tournament) -> Evening``)."""
    found: dict[str, set[Type | None]] = {}
    for file in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(node.name, set()).add(_annotation(node.returns))
    return {name: next(iter(t)) for name, t in found.items() if len(t) == 1 and None not in t}


RETURNS = _returns()


def writes_of(path: str, source: str) -> list[Write]:
    return Module(path, source).writes()


def all_writes() -> list[Write]:
    return [
        w
        for file in sorted(SRC.rglob("*.py"))
        for w in writes_of(file.relative_to(SRC).as_posix(), file.read_text(encoding="utf-8"))
    ]


def test_every_write_stands_where_its_table_may_be_written() -> None:
    found = all_writes()
    assert len(found) > 100, "the checker found too few writes: is it still reading the code?"
    misplaced = [str(w) for w in found if not allowed(w)]
    assert misplaced == [], (
        "a write outside the places WRITERS allows for its table: history goes through a service"
    )


def test_every_model_has_its_writers_and_every_place_exists() -> None:
    """A new model of the club is a decision: who writes it goes into WRITERS."""
    club_models = {m.__name__ for m in apps.get_app_config("club").get_models()}
    assert club_models - WRITERS.keys() == set()
    unknown = WRITERS.keys() - MODELS.keys() - {ANY, "searches", "database"}
    assert unknown == set()
    places = {p for allowed_places in WRITERS.values() for p in allowed_places}
    assert sorted(p for p in places | {MIGRATIONS} if not (SRC / p).exists()) == []


SAMPLE = """\
from clubrating.club.store.models import Member, Entry, RatingChange


def rename(club, name: str) -> None:
    Member.objects.filter(club=club).exclude(name="").update(name=name)
    member: Member = Member.objects.get(pk=1)
    member.save()
    for entry in Entry.objects.filter(member=member):
        entry.delete()
    member.entries.create(name=name)
    values = {}
    values.update(name=name)
    seen = set()
    seen.add(name)


def _insert(model, rows):
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {_table(model)} VALUES (%s)", rows)
        cursor.execute("SELECT 1 FROM club_member FOR UPDATE")


def rebuild(thing) -> None:
    _insert(RatingChange, [])
    thing.save()
    RatingChange.objects.bulk_create([])


def tidy(rows: QuerySet[Any]) -> None:
    rows.filter(pk=1).delete()
    models.Member.objects.update(name="")
    call_command("flush")
    call_command("check")
"""


def test_the_checker_finds_writes_inside_functions_chains_and_helpers() -> None:
    found = [(w.line, w.model) for w in writes_of("web/views.py", SAMPLE)]
    assert found == [
        (5, "Member"),  # Model.objects.filter(...).exclude(...).update(...)
        (7, "Member"),  # an annotated variable
        (9, "Entry"),  # a row of a loop over a queryset
        (10, "Entry"),  # a related manager: member.entries
        (19, "RatingChange"),  # raw SQL through a helper, its table named by the caller
        (25, "*"),  # a .save() of no known model
        (26, "RatingChange"),
        (30, "*"),  # a queryset of some model
        (31, "Member"),  # a model through its module
        (32, "*"),  # call_command("flush")
    ]
    assert not any(allowed(w) for w in writes_of("web/views.py", SAMPLE))
    derived = writes_of("club/derived/sample.py", SAMPLE)
    assert [allowed(w) for w in derived if w.line > 16] == [True, False, True, False, False, False]
    in_services = {w.line: allowed(w) for w in writes_of("club/services/sample.py", SAMPLE)}
    assert in_services == {
        **{5: True, 7: True, 9: True, 10: True, 19: False, 25: False, 26: False},
        **{30: False, 31: True, 32: False},
    }
