"""The formula language: a checked subset of Python expressions, compiled once, evaluated often.

A formula is parsed with `ast` (after a cap on its length), checked against an allow-list
(numbers, known names, ``+ - * / // % **``, comparisons, ``and/or/not``, ``x if c else y``,
``<catalogue parameter>.<field>`` and calls of the math builtins and registered estimator
functions), capped in node count and depth, typed (number, text, catalogue entry) and compiled
into a tree of closures. Nothing is ever passed to `eval` or `exec`. Evaluating a compiled
formula costs a few microseconds.

Every refusal and every evaluation failure raises `FormulaError` with a plain message. A
registered function's `ValueError`, `TypeError` or any other exception is wrapped in one.
Non-finite results are refused. Powers are computed in floating point with the exponent
bounded, so ``9**9**9`` is refused instead of computed.

Why an allow-list rather than simpleeval or asteval: docs/reference.md, "Operations" (every
evaluator tried passed attacker-chosen argument types into the functions it exposes; this
allow-list blocked the whole attack corpus in tests/security). Its cost per evaluation is in
bench/README.md.
"""

import ast
import difflib
import inspect
import math
import operator
import warnings
from collections.abc import Callable, Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple, NoReturn

import numpy as np

from .budget import check as check_deadline
from .catalogue import NUMBER, OPAQUE, TEXT, Catalogue
from .errors import FormulaError

MAX_SOURCE_LENGTH = 1000
MAX_NODES = 300
MAX_DEPTH = 40
MAX_EXPONENT = 1024
MAX_INTEGER_CONSTANT = 10**18
MAX_ARGUMENTS = 32

Kind = str | type
"""NUMBER, TEXT, OPAQUE, or a catalogue entry class."""

Env = Mapping[str, Any]
"""The values a formula reads, by name (numbers in base units, text, catalogue entries)."""
Number = float | int


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _sqrt(x: Number) -> float:
    _need(x >= 0, f"cannot take the square root of a negative number ({x})")
    return math.sqrt(x)


def _log(x: Number, base: Number | None = None) -> float:
    _need(x > 0, f"the logarithm needs a positive number, got {x}")
    if base is None:
        return math.log(x)
    _need(base > 0 and base != 1, f"the logarithm base must be positive and not 1, got {base}")
    return math.log(x) / math.log(base)


def _log2(x: Number) -> float:
    _need(x > 0, f"the logarithm needs a positive number, got {x}")
    return math.log2(x)


def _log10(x: Number) -> float:
    _need(x > 0, f"the logarithm needs a positive number, got {x}")
    return math.log10(x)


def _gamma(x: Number) -> float:
    _need(
        not (x <= 0 and x == math.floor(x)),
        f"Γ(x) is undefined at 0 and at the negative whole numbers, got {x}",
    )
    return math.gamma(x)


def _lgamma(x: Number) -> float:
    _need(x > 0, f"ln Γ(x) needs x > 0, got {x}")
    return math.lgamma(x)


def _round(x: Number, digits: Number = 0) -> Number:
    _need(digits == int(digits) and abs(digits) <= 15, "round() keeps between -15 and 15 digits")
    rounded = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-int(digits)), ROUND_HALF_UP)
    return int(rounded) if digits <= 0 else float(rounded)


def _clip(x: Number, low: Number, high: Number) -> Number:
    _need(low <= high, f"clip() needs low <= high, got {low} > {high}")
    return min(max(x, low), high)


BUILTINS: dict[str, tuple[Callable[..., Number], int, int, str]] = {
    # name: (function, fewest arguments, most arguments, one-line description)
    "min": (min, 1, MAX_ARGUMENTS, "min(a, b, …): the smallest of its arguments"),
    "max": (max, 1, MAX_ARGUMENTS, "max(a, b, …): the largest of its arguments"),
    "abs": (abs, 1, 1, "abs(x): the magnitude of x"),
    "ceil": (math.ceil, 1, 1, "ceil(x): the smallest whole number >= x"),
    "floor": (math.floor, 1, 1, "floor(x): the largest whole number <= x"),
    "round": (_round, 1, 2, "round(x, digits=0): x rounded half up to `digits` decimals"),
    "sqrt": (_sqrt, 1, 1, "sqrt(x): the square root of x (x >= 0)"),
    "log": (_log, 1, 2, "log(x, base=e): the logarithm of x > 0"),
    "log2": (_log2, 1, 1, "log2(x): the base-2 logarithm of x > 0"),
    "log10": (_log10, 1, 1, "log10(x): the base-10 logarithm of x > 0"),
    "exp": (math.exp, 1, 1, "exp(x): e to the power x"),
    "gamma": (_gamma, 1, 1, "gamma(x): Γ(x), with Γ(n) = (n − 1)! (x not 0 or a negative whole)"),
    "lgamma": (_lgamma, 1, 1, "lgamma(x): ln Γ(x) for x > 0 (for large x, where Γ overflows)"),
    "clip": (_clip, 3, 3, "clip(x, low, high): x limited to [low, high]"),
}

_BINARY_OPERATORS = {
    ast.Add: (operator.add, "+"),
    ast.Sub: (operator.sub, "-"),
    ast.Mult: (operator.mul, "*"),
    ast.Div: (operator.truediv, "/"),
    ast.FloorDiv: (operator.floordiv, "//"),
    ast.Mod: (operator.mod, "%"),
}
_COMPARISONS = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_REFUSED = {
    ast.Lambda: "lambdas are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.Subscript: "indexing with [ ] is not allowed",
    ast.Slice: "slices are not allowed",
    ast.JoinedStr: "text (f-strings) is not allowed in a formula",
    ast.FormattedValue: "text (f-strings) is not allowed in a formula",
    ast.List: "lists are not allowed",
    ast.Tuple: "tuples are not allowed",
    ast.Set: "sets are not allowed",
    ast.Dict: "dictionaries are not allowed",
    ast.NamedExpr: "':=' is not allowed",
    ast.Starred: "'*' unpacking is not allowed",
    ast.Await: "'await' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
}
_SKIPPED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


class _Compiled(NamedTuple):
    evaluate: Callable[[Env], Any]
    kind: Kind
    constant: bool


class Formula:
    """A validated, compiled formula. Evaluate it with `evaluate(env)`.

    - `source`: the text as written.
    - `kind`: NUMBER, TEXT, OPAQUE or a catalogue entry class (the static type of the result).
    - `names`: the value names it reads (parameters, given, derived, parts).
    - `functions`: the registered functions it calls.
    """

    __slots__ = ("source", "kind", "names", "functions", "_evaluate", "_check_number")

    def __init__(
        self,
        source: str,
        kind: Kind,
        names: Iterable[str],
        functions: Iterable[str],
        evaluate: Callable[[Env], Any],
    ) -> None:
        self.source = source
        self.kind = kind
        self.names = frozenset(names)
        self.functions = frozenset(functions)
        self._evaluate = evaluate
        self._check_number = kind == NUMBER

    def evaluate(self, env: Env) -> Any:
        """The formula's value for the values in `env` (name -> value, base units).

        Raises `FormulaError` when a value is missing, an operation fails, a registered
        function refuses its arguments, or the result is not a finite number.
        """
        check_deadline(self.source)
        try:
            value = self._evaluate(env)
        except KeyError as missing:
            raise FormulaError(f"no value for {missing.args[0]!r}", self.source) from None
        except RecursionError:
            raise FormulaError("the formula is nested too deeply", self.source) from None
        if self._check_number:
            value = _as_number(value, self.source)
        return value

    def __repr__(self) -> str:
        return f"Formula({self.source!r})"


def compile_formula(
    source: str,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
    *,
    result: str = NUMBER,
) -> Formula:
    """Validate `source` and compile it.

    `names` maps every name the formula may read to its kind (NUMBER, TEXT, or a catalogue
    entry class). `result` is NUMBER (the formula must compute a number) or "any" (text
    placeholders may show a model's name or a whole entry).
    """
    if not isinstance(source, str):
        raise FormulaError("a formula must be text")
    if len(source) > MAX_SOURCE_LENGTH:
        raise FormulaError(
            f"the formula is too long ({len(source)} characters; at most {MAX_SOURCE_LENGTH})"
        )
    text = source.strip()
    if not text:
        raise FormulaError("the formula is empty")
    tree = _parse(text)
    _measure(tree)
    compiler = _Compiler(text, names, catalogue)
    compiled = compiler.compile(tree.body)
    if result == NUMBER and compiled.kind != NUMBER:
        raise FormulaError(
            f"the formula gives {compiler.describe_kind(compiled.kind)}, not a number", text
        )
    return Formula(text, compiled.kind, compiler.names, compiler.functions, compiled.evaluate)


def _parse(text: str) -> ast.Expression:
    try:
        with warnings.catch_warnings():
            # "invalid decimal literal" and the like: the formula is refused or fine either way.
            warnings.simplefilter("ignore")
            return ast.parse(text, mode="eval")
    except SyntaxError as error:
        where = f" (column {error.offset})" if error.offset else ""
        message = (error.msg or "invalid syntax").replace("invalid syntax. ", "")
        raise FormulaError(f"not a valid formula: {message}{where}", text) from None
    except (RecursionError, MemoryError):
        raise FormulaError("the formula is nested too deeply", text) from None
    except ValueError as error:
        raise FormulaError(f"not a valid formula: {error}", text) from None


def _measure(tree: ast.AST) -> None:
    count = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, _SKIPPED):
            continue
        count += 1
        if count > MAX_NODES:
            raise FormulaError(f"the formula is too long (more than {MAX_NODES} parts)")
        if depth > MAX_DEPTH:
            raise FormulaError(f"the formula is nested too deeply (more than {MAX_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _as_number(value: object, where: str) -> Number:
    if type(value) is float:
        if value - value != 0.0:
            raise FormulaError(f"{where} is not a finite number ({value})", where)
        return value
    if type(value) is int:
        if abs(value) > 1e300:
            raise FormulaError(f"{where} is too large", where)
        return value
    if type(value) is bool:
        return int(value)
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise FormulaError(f"{where} gave {value.size} numbers where one was expected", where)
        value = value.reshape(()).item()
        return _as_number(value, where)
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return _as_number(value.item(), where)
    if isinstance(value, float):
        return _as_number(float(value), where)
    if isinstance(value, int):
        return _as_number(int(value), where)
    raise FormulaError(f"{where} gave {type(value).__name__}, not a number", where)


def _power(base: Number, exponent: Number) -> float:
    if abs(exponent) > MAX_EXPONENT:
        shown = int(exponent) if exponent == int(exponent) else exponent
        raise FormulaError(f"the exponent {shown} is too large (at most {MAX_EXPONENT})")
    if base == 0 and exponent < 0:
        raise ZeroDivisionError
    if base < 0 and exponent != math.floor(exponent):
        raise FormulaError(f"a negative number ({base}) to a fractional power ({exponent})")
    return math.pow(base, exponent)


def _constant(value: object) -> Callable[[Env], object]:
    return lambda env: value


class _Compiler:
    def __init__(self, source: str, names: Mapping[str, Kind], catalogue: Catalogue) -> None:
        self.source = source
        self.known = names
        self.catalogue = catalogue
        self.names: set[str] = set()
        self.functions: set[str] = set()

    def fail(self, message: str) -> NoReturn:
        raise FormulaError(message, self.source)

    def segment(self, node: ast.AST) -> str:
        return "'" + (ast.get_source_segment(self.source, node) or self.source) + "'"

    def describe_kind(self, kind: Kind) -> str:
        if kind == NUMBER:
            return "a number"
        if kind == TEXT:
            return "text"
        if kind == OPAQUE or not isinstance(kind, type):
            return "a value that is not a number"
        return self.catalogue.describe_class(kind)

    def compile(self, node: ast.AST) -> _Compiled:
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is None:
            reason = _REFUSED.get(type(node)) or f"'{type(node).__name__}' is not allowed here"
            self.fail(reason)
        compiled = handler(node)
        if compiled.constant:
            # Fold constants now, so `9**9**9` or `1/0` is refused when the formula is saved.
            return _Compiled(_constant(compiled.evaluate({})), compiled.kind, True)
        return compiled

    def need_number(self, compiled: _Compiled, node: ast.AST, context: str) -> None:
        if compiled.kind == NUMBER:
            return
        hint = ""
        if isinstance(compiled.kind, type):
            fields = sorted(self.catalogue.fields.get(compiled.kind, ()))
            example = next(
                (f for f in fields if self.catalogue.field_kind(compiled.kind, f) == NUMBER), None
            )
            if example and isinstance(node, ast.Name):
                hint = f" (use one of its fields, e.g. {node.id}.{example})"
        self.fail(
            f"{context} needs numbers, but {self.segment(node)} is "
            f"{self.describe_kind(compiled.kind)}{hint}"
        )

    # Leaves.

    def _Constant(self, node: ast.Constant) -> _Compiled:
        value = node.value
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER_CONSTANT:
                self.fail(f"the number {self.segment(node)} is too large; write it as 1e18 or less")
        elif isinstance(value, float):
            if not math.isfinite(value):
                self.fail(f"the number {self.segment(node)} is too large")
        elif isinstance(value, (str, bytes)):
            self.fail("text (string constants) is not allowed in a formula")
        elif isinstance(value, complex):
            self.fail("complex numbers are not allowed")
        else:
            self.fail(f"'{value!r}' is not allowed in a formula")
        return _Compiled(_constant(value), NUMBER, True)

    def _Name(self, node: ast.Name) -> _Compiled:
        name = node.id
        if name.startswith("_"):
            self.fail(f"names starting with '_' are not allowed ({name})")
        if name in self.known:
            self.names.add(name)
            return _Compiled(operator.itemgetter(name), self.known[name], False)
        if name in BUILTINS or name in self.catalogue.functions:
            self.fail(f"'{name}' is a function: call it, e.g. {name}(…)")
        self.fail(f"unknown name '{name}'{self.suggest(name, self.known)}")

    def suggest(self, name: str, candidates: Iterable[str]) -> str:
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f" (did you mean '{close[0]}'?)" if close else ""

    def _Attribute(self, node: ast.Attribute) -> _Compiled:
        if not isinstance(node.value, ast.Name):
            self.fail("only a catalogue parameter's field may be read, e.g. model.layers")
        field = node.attr
        if field.startswith("_"):
            self.fail(f"fields starting with '_' are not allowed ({field})")
        base = self._Name(node.value)
        cls = base.kind
        if not isinstance(cls, type):
            self.fail(f"'{node.value.id}' is {self.describe_kind(cls)}: it has no fields")
        allowed = self.catalogue.fields.get(cls, frozenset())
        if field not in allowed:
            self.fail(
                f"{self.catalogue.describe_class(cls)} has no field '{field}' that formulas may "
                f"read{self.suggest(field, allowed)}"
            )
        kind = self.catalogue.field_kind(cls, field)
        read_base = base.evaluate
        read_field = operator.attrgetter(field)
        where = self.segment(node)

        def evaluate(env: Env) -> Any:
            entry = read_base(env)
            if entry.__class__ is not cls:
                raise FormulaError(f"{where} needs {self.describe_kind(cls)}", self.source)
            value = read_field(entry)
            if value is None or (value.__class__ is float and value != value):
                raise FormulaError(
                    f"{getattr(entry, 'name', entry)} has no value for {field}", self.source
                )
            if kind == NUMBER and value.__class__ is not int and value.__class__ is not float:
                value = _as_number(value, where)
            return value

        return _Compiled(evaluate, kind, False)

    # Operators.

    def _BinOp(self, node: ast.BinOp) -> _Compiled:
        left = self.compile(node.left)
        right = self.compile(node.right)
        op: Callable[[Any, Any], Any]
        if isinstance(node.op, ast.Pow):
            op, symbol = _power, "**"
        elif type(node.op) in _BINARY_OPERATORS:
            op, symbol = _BINARY_OPERATORS[type(node.op)]
        else:
            self.fail(f"the operator in {self.segment(node)} is not allowed")
        self.need_number(left, node.left, f"'{symbol}'")
        self.need_number(right, node.right, f"'{symbol}'")
        where = self.segment(node)
        source = self.source
        left_value, right_value = left.evaluate, right.evaluate
        isfinite = math.isfinite

        def evaluate(env: Env) -> Any:
            try:
                value = op(left_value(env), right_value(env))
            except ZeroDivisionError:
                raise FormulaError(f"division by zero in {where}", source) from None
            except OverflowError:
                raise FormulaError(f"{where} is too large", source) from None
            except (TypeError, ValueError) as error:
                raise FormulaError(f"{where} cannot be computed ({error})", source) from None
            if value.__class__ is float and not isfinite(value):
                raise FormulaError(f"{where} is not a finite number", source)
            return value

        return _Compiled(evaluate, NUMBER, left.constant and right.constant)

    def _UnaryOp(self, node: ast.UnaryOp) -> _Compiled:
        operand = self.compile(node.operand)
        value = operand.evaluate
        if isinstance(node.op, ast.Not):
            self.need_number(operand, node.operand, "'not'")
            return _Compiled(lambda env: not value(env), NUMBER, operand.constant)
        if isinstance(node.op, ast.USub):
            self.need_number(operand, node.operand, "'-'")
            return _Compiled(lambda env: -value(env), NUMBER, operand.constant)
        if isinstance(node.op, ast.UAdd):
            self.need_number(operand, node.operand, "'+'")
            return operand
        self.fail(f"the operator in {self.segment(node)} is not allowed")

    def _BoolOp(self, node: ast.BoolOp) -> _Compiled:
        operands = [self.compile(value) for value in node.values]
        word = "and" if isinstance(node.op, ast.And) else "or"
        for compiled, value in zip(operands, node.values, strict=True):
            self.need_number(compiled, value, f"'{word}'")
        first, rest = operands[0].evaluate, [compiled.evaluate for compiled in operands[1:]]
        is_and = word == "and"

        def evaluate(env: Env) -> Any:
            value = first(env)
            for following in rest:
                if bool(value) != is_and:
                    return value
                value = following(env)
            return value

        return _Compiled(evaluate, NUMBER, all(c.constant for c in operands))

    def _Compare(self, node: ast.Compare) -> _Compiled:
        operands = [self.compile(node.left)] + [self.compile(c) for c in node.comparators]
        for compiled, value in zip(operands, [node.left, *node.comparators], strict=True):
            self.need_number(compiled, value, "a comparison")
        functions = []
        for op in node.ops:
            if type(op) not in _COMPARISONS:
                self.fail(
                    f"the comparison in {self.segment(node)} is not allowed (use < <= > >= == !=)"
                )
            functions.append(_COMPARISONS[type(op)])
        values = [compiled.evaluate for compiled in operands]
        constant = all(c.constant for c in operands)
        if len(functions) == 1:
            compare, left, right = functions[0], values[0], values[1]
            return _Compiled(lambda env: compare(left(env), right(env)), NUMBER, constant)

        def evaluate(env: Env) -> bool:
            left = values[0](env)
            for compare, right_value in zip(functions, values[1:], strict=True):
                right = right_value(env)
                if not compare(left, right):
                    return False
                left = right
            return True

        return _Compiled(evaluate, NUMBER, constant)

    def _IfExp(self, node: ast.IfExp) -> _Compiled:
        test = self.compile(node.test)
        body = self.compile(node.body)
        orelse = self.compile(node.orelse)
        self.need_number(test, node.test, "the condition of 'if … else'")
        if body.kind != orelse.kind:
            self.fail(
                f"both branches of {self.segment(node)} must give the same kind of value "
                f"({self.describe_kind(body.kind)} / {self.describe_kind(orelse.kind)})"
            )
        condition, yes, no = test.evaluate, body.evaluate, orelse.evaluate
        constant = test.constant and body.constant and orelse.constant
        return _Compiled(lambda env: yes(env) if condition(env) else no(env), body.kind, constant)

    # Calls.

    def _Call(self, node: ast.Call) -> _Compiled:
        if not isinstance(node.func, ast.Name):
            self.fail("only the math builtins and registered functions can be called, by name")
        name = node.func.id
        if name.startswith("_"):
            self.fail(f"names starting with '_' are not allowed ({name})")
        if len(node.args) + len(node.keywords) > MAX_ARGUMENTS:
            self.fail(f"{name}() has too many arguments")
        for argument in node.args:
            if isinstance(argument, ast.Starred):
                self.fail("'*' unpacking is not allowed")
        for keyword in node.keywords:
            if keyword.arg is None:
                self.fail("'**' unpacking is not allowed")
        if name in BUILTINS:
            return self._builtin_call(node, name)
        if name in self.catalogue.functions:
            return self._registered_call(node, name)
        if name in self.known:
            self.fail(f"'{name}' is a value, not a function")
        candidates = list(BUILTINS) + list(self.catalogue.functions)
        self.fail(f"unknown function '{name}'{self.suggest(name, candidates)}")

    def _builtin_call(self, node: ast.Call, name: str) -> _Compiled:
        function, fewest, most, _ = BUILTINS[name]
        if node.keywords:
            self.fail(f"{name}() takes no keyword arguments")
        count = len(node.args)
        if not fewest <= count <= most:
            expected = str(fewest) if fewest == most else f"{fewest} to {most}"
            self.fail(f"{name}() takes {expected} argument(s), got {count}")
        arguments = [self.compile(argument) for argument in node.args]
        for compiled, argument in zip(arguments, node.args, strict=True):
            self.need_number(compiled, argument, f"{name}()")
        values = [compiled.evaluate for compiled in arguments]
        source = self.source
        where = self.segment(node)

        def evaluate(env: Env) -> Number:
            try:
                return _as_number(function(*[value(env) for value in values]), where)
            except FormulaError:
                raise
            except OverflowError:
                raise FormulaError(f"{where} is too large", source) from None
            except (ValueError, TypeError, ArithmeticError) as error:
                raise FormulaError(f"{name}(): {error}", source) from None

        return _Compiled(evaluate, NUMBER, all(c.constant for c in arguments))

    def _registered_call(self, node: ast.Call, name: str) -> _Compiled:
        function = self.catalogue.functions[name]
        self.functions.add(name)
        arguments = [self.compile(argument) for argument in node.args]
        # _Call refused `**` unpacking, the one keyword without a name.
        keywords = [
            (keyword.arg, self.compile(keyword.value))
            for keyword in node.keywords
            if keyword.arg is not None
        ]
        for compiled, argument in zip(
            arguments + [c for _, c in keywords],
            list(node.args) + [k.value for k in node.keywords],
            strict=True,
        ):
            if compiled.kind == TEXT:
                self.fail(f"{name}() cannot take text ({self.segment(argument)})")
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            signature = None
        if signature is not None:
            try:
                signature.bind(*arguments, **dict(keywords))
            except TypeError as error:
                self.fail(f"{name}(): {error}")
        values = [compiled.evaluate for compiled in arguments]
        keyword_values = [(key, compiled.evaluate) for key, compiled in keywords]
        source = self.source
        where = self.segment(node)
        call = where[1:-1]  # unquoted, for the deadline's message

        def evaluate(env: Env) -> Number:
            positional = [value(env) for value in values]
            named = {key: value(env) for key, value in keyword_values}
            check_deadline(call)  # registered functions are the costly part of a formula
            try:
                result = function(*positional, **named)
            except (ValueError, TypeError, ArithmeticError) as error:
                raise FormulaError(f"{name}(): {error}", source) from None
            except Exception as error:  # noqa: BLE001 - a formula must never crash the caller
                raise FormulaError(
                    f"{name}() failed ({type(error).__name__}: {error})", source
                ) from None
            return _as_number(result, where)

        constant = all(c.constant for c in arguments) and all(c.constant for _, c in keywords)
        return _Compiled(evaluate, NUMBER, constant)


def formula_reference(catalogue: Catalogue) -> list[dict[str, str]]:
    """The functions a formula may call, for the authoring page: name, signature, summary."""
    entries = [
        {"name": name, "signature": description.split(":")[0], "summary": description}
        for name, (_, _, _, description) in BUILTINS.items()
    ]
    for name, function in sorted(catalogue.functions.items()):
        try:
            signature = f"{name}{inspect.signature(function)}"
        except (TypeError, ValueError):
            signature = f"{name}(…)"
        doc = inspect.getdoc(function) or ""
        entries.append({"name": name, "signature": signature, "summary": doc.split("\n")[0]})
    return entries
