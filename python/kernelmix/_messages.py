"""The library's error messages in the words of the Python package.

libkernelmix writes its messages for the CLI and the C API, so some name a CLI option ("--mkl lmkl trains
one machine", "train with --multiclass ovo for -b 1"). The package shows every library message through
as_estimator_terms, which names the estimators' parameters instead (method='lmkl', multiclass='ovo',
probability=True), and the estimators' parameters that the library knows by another name (C API
parameter names) through parameter_message.
"""
import re

# (a CLI option as the library's messages write it, the estimator parameter or class it is); the
# options take their value as the messages give it. Short options stand alone (not "one-vs-one").
_SHORT = r"(?<![\w-])"
_CLI_TO_PYTHON = [
    (r"--format seq, km_dataset_read_sequences or km_dataset_from_strings",
     "the CLI or the C API; the Python package reads no sequences"),
    (_SHORT + r"-b 1 \(KM_PARAM_PROBABILITY\)", "probability=True"),
    (r"--mkl ([\w-]+)", r"method='\1'"),
    (r"--multiclass (\w+)", r"multiclass='\1'"),
    (r"--solver (\w+)", r"solver='\1'"),
    (r"--noise\b", "noise"),
    (r"--clusters (\d+)", r"clusters=\1"),
    (_SHORT + r"-s krr\b", "MKLRidge"),
    (_SHORT + r"-b 1\b", "probability=True"),
    (_SHORT + r"-e ([\d.e+-]*\d)", r"tol=\1"),
    (_SHORT + r"-e\b", "tol"),
    (_SHORT + r"-m (\d+)", r"cache_size=\1"),
    (_SHORT + r"-w\b", "class_weight"),
]
_RULES = [(re.compile(pattern), replacement) for pattern, replacement in _CLI_TO_PYTHON]

# A CLI option in a message: --long or a single-letter -x standing alone.
CLI_OPTION = re.compile(r"(?<![\w-])(--[a-z][\w-]*|-[a-zA-Z](?![\w-]))")


def as_estimator_terms(message):
    """message with the CLI options it names written as the estimators' parameters."""
    for pattern, replacement in _RULES:
        message = pattern.sub(replacement, message)
    return message


_OUT_OF_BOUNDS = re.compile(r"^parameter \S+ (must be .*)$")


def parameter_message(parameter, value, message):
    """The library's refusal of a parameter value, naming the estimator's parameter: the library says
    "parameter cache_mb must be a number in (0, inf) (got -5)" of what the estimators call cache_size."""
    bounds = _OUT_OF_BOUNDS.match(message)
    if bounds:
        return f"{parameter}={value!r}: {bounds.group(1)}"
    return f"{parameter}={value!r}: {message}"


_TEXT_REFUSAL = re.compile(r"^parameter \S+: (.*)$")


def text_message(parameter, text, message):
    """The library's refusal of a value given as text (km_params_set_text), naming the estimator's
    parameter: "parameter p: 'two' is not a number" reads "p='two' is not a number", "parameter p: 1/0:
    division by zero" reads "p='1/0': division by zero"."""
    refusal = _TEXT_REFUSAL.match(message)
    if not refusal:
        return f"{parameter}={text!r}: {message}"
    said = refusal.group(1)
    for quoted in (repr(text), f"'{text}'", text):
        if said.startswith(quoted):
            return f"{parameter}={text!r}{said[len(quoted):]}"
    return f"{parameter}={text!r}: {said}"
