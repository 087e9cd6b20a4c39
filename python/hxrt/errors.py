"""hxrt's exceptions, as tf.errors names them: OpError, and a subclass per status.

Every error the runtime reports is raised as the subclass of its status, carrying hxrt's
message (what was asked, what was found and what to do); catch ``hxrt.errors.OpError`` for
any of them. OpError is a RuntimeError, so the guide's ``except RuntimeError as e:`` catches
what it catches in TensorFlow (an unknown device, a setup changed after initialization).
"""

from hxrt import _hxrt


class OpError(RuntimeError):
    """An error the runtime reported; its subclass names the status."""

    status = "UNKNOWN"


class InvalidArgumentError(OpError):
    """An argument was wrong: a shape, a dtype, an attribute, a device name."""

    status = "INVALID_ARGUMENT"


class NotFoundError(OpError):
    """Something named does not exist: an op, a device, a file."""

    status = "NOT_FOUND"


class AlreadyExistsError(OpError):
    """Something was made twice."""

    status = "ALREADY_EXISTS"


class ResourceExhaustedError(OpError):
    """A device ran out of memory, or an allocation exceeds a limit."""

    status = "OUT_OF_MEMORY"


class UnimplementedError(OpError):
    """No kernel or code path does what was asked."""

    status = "UNIMPLEMENTED"


class FailedPreconditionError(OpError):
    """The runtime is not in a state that allows the call (its devices are set up already)."""

    status = "FAILED_PRECONDITION"


class UnavailableError(OpError):
    """A device or a plugin cannot serve the call now."""

    status = "UNAVAILABLE"


class OutOfRangeError(OpError):
    """A value is outside the range the call accepts."""

    status = "OUT_OF_RANGE"


class InternalError(OpError):
    """A library or a plugin failed in a way the runtime did not expect."""

    status = "INTERNAL"


_hxrt._register_error_classes(
    {cls.status: cls for cls in OpError.__subclasses__()})

__all__ = ["OpError"] + [cls.__name__ for cls in OpError.__subclasses__()]
