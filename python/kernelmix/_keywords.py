"""An estimator constructed with a keyword it does not have (kernel= for kernels=) raises a TypeError
that names the parameter meant, not Python's bare "unexpected keyword argument"."""
import difflib
import inspect

_KERNEL_KEYS = ("gamma", "degree", "coef0")   # SVC's kernel parameters, keys of the kernel specs


class SuggestsParameters:
    """Base of the estimators: checks the keywords of a construction against the parameters of
    __init__ before Python does."""

    def __new__(cls, *args, **kwargs):
        parameters = [name for name in inspect.signature(cls.__init__).parameters if name != "self"]
        for keyword in kwargs:
            if keyword not in parameters:
                close = difflib.get_close_matches(keyword, parameters, n=1, cutoff=0.6)
                if close:
                    hint = f": did you mean {close[0]}=?"
                elif keyword in _KERNEL_KEYS and "kernels" in parameters:
                    hint = f": a kernel's parameters are part of its spec, e.g. kernels=['rbf:{keyword}=0.5']"
                else:
                    hint = f" (its parameters: {', '.join(parameters)})"
                raise TypeError(f"{cls.__name__} has no parameter {keyword!r}{hint}")
        return super().__new__(cls)
