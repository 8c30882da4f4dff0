"""The engine's exceptions: every failure a caller must handle is one of these.

- `FormulaError`: a formula is not allowed (validation) or cannot be evaluated for a draw
  (division by zero, a non-finite result, a registered function refusing its arguments).
- `ParseError`: a learner's typed answer is not a number with a unit of the right kind. It costs
  the learner nothing; its message says exactly what was wrong.
- `ScenarioError`: a problem or scenario definition is invalid. It carries every error found,
  each with the field path (``scenarios[1].parts[0].answer``) and a plain explanation.
- `SamplingError`: no parameter draw satisfies the scenario's constraints within the attempt
  budget; the message names the constraint that rejected most draws.
"""

from dataclasses import dataclass


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class FormulaError(EngineError):
    """A formula is refused by the validator, or failed while being evaluated."""

    def __init__(self, message: str, source: str | None = None):
        super().__init__(message)
        self.source = source


class ParseError(EngineError):
    """A typed answer could not be read; grading reports it and charges no attempt."""


@dataclass(frozen=True)
class FieldError:
    """One problem in a definition: where (`path`) and what (`message`)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def to_json(self) -> dict:
        return {"path": self.path, "message": self.message}


class ScenarioError(EngineError):
    """A definition failed validation; `errors` lists every problem found."""

    def __init__(self, errors: list[FieldError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


class SamplingError(EngineError):
    """The constraints rejected every draw within the attempt budget."""

    def __init__(self, message: str, constraint: str | None = None):
        super().__init__(message)
        self.constraint = constraint
