"""Profiling: shares of a kernel timeline, Amdahl's law, and a launch-bound GPU.

A profile (Nsight Systems) splits a step into kernels and gaps. Speeding up one part whose share
of the time is f by a factor s gives an overall speedup 1 / ((1 − f) + f/s), never more than
1 / (1 − f) however fast that part becomes.

A GPU reported at 30 % utilisation is often not slow but idle: if the CPU needs longer to launch
a step's kernels than the GPU needs to run them, the GPU waits (fix: CUDA graphs, fewer and
fused kernels, larger batches). The other diagnoses are the MFU and MBU of
:mod:`roofline`: low MBU at small batch points at the memory path, low MFU at large batch at the
kernels.

References
----------
G. M. Amdahl, "Validity of the single processor approach to achieving large scale computing
capabilities", AFIPS 1967; NVIDIA CUDA C++ Best Practices Guide (kernel launch overhead, CUDA
graphs).
"""

import numpy as np

from . import _validate as check


def timeline_share(part_time, total_time):
    """Share of a timeline taken by one part (a kernel, a phase, the idle gaps).

    Parameters
    ----------
    part_time : number or array
        Time of the part [s].
    total_time : number or array
        Time of the whole, at least the part [s].

    Returns
    -------
    Share [1] = part / total.
    """
    check.non_negative("part_time", part_time, check.MAX_SECONDS)
    check.positive("total_time", total_time, check.MAX_SECONDS)
    if check.any_true(part_time > total_time):
        check.refuse("part_time", "must not exceed total_time", part_time)
    return part_time / total_time


def amdahl_speedup(fraction, part_speedup):
    """Overall speedup from speeding up one part of the work (Amdahl's law).

    Parameters
    ----------
    fraction : number or array
        Share of the time the improved part took, f [1].
    part_speedup : number or array
        How many times faster that part becomes, s ≥ 1 [1].

    Returns
    -------
    Speedup [1] = 1 / ((1 − f) + f / s).
    """
    check.fraction("fraction", fraction)
    check.at_least("part_speedup", part_speedup, 1, check.MAX_FACTOR)
    return 1 / ((1 - fraction) + fraction / part_speedup)


def amdahl_limit(fraction):
    """Largest overall speedup possible by making one part infinitely fast.

    Parameters
    ----------
    fraction : number or array
        Share of the time that part takes, f, below 1 [1].

    Returns
    -------
    Speedup bound [1] = 1 / (1 − f).
    """
    check.fraction("fraction", fraction)
    if check.any_true(fraction >= 1):
        check.refuse("fraction", "must be below 1 for a finite limit", fraction)
    return 1 / (1 - fraction)


def time_after_speedup(total_time, part_time, part_speedup):
    """Time of the whole after one part is made faster.

    Parameters
    ----------
    total_time : number or array
        Time before [s].
    part_time : number or array
        Time of the part before, at most the total [s].
    part_speedup : number or array
        Factor by which the part speeds up, ≥ 1 [1].

    Returns
    -------
    Time [s] = total − part + part / speedup.
    """
    check.positive("total_time", total_time, check.MAX_SECONDS)
    check.non_negative("part_time", part_time, check.MAX_SECONDS)
    check.at_least("part_speedup", part_speedup, 1, check.MAX_FACTOR)
    if check.any_true(part_time > total_time):
        check.refuse("part_time", "must not exceed total_time", part_time)
    return total_time - part_time + part_time / part_speedup


def launch_bound_gpu_utilization(kernel_count, launch_overhead, gpu_busy_time):
    """GPU busy share when the CPU launches kernels no faster than a fixed cost each.

    Parameters
    ----------
    kernel_count : number or array
        Kernels launched per step [kernels].
    launch_overhead : number or array
        CPU time to launch one kernel [s] (about 5-10 µs through PyTorch eager).
    gpu_busy_time : number or array
        Time the GPU needs to run the step's kernels [s].

    Returns
    -------
    Utilisation [1] = GPU time / max(GPU time, kernels × launch overhead), assuming launches
    overlap execution (asynchronous launches, no synchronisation inside the step).
    """
    check.positive("kernel_count", kernel_count, check.MAX_COUNT)
    check.non_negative("launch_overhead", launch_overhead, 1.0)
    check.positive("gpu_busy_time", gpu_busy_time, check.MAX_SECONDS)
    return gpu_busy_time / np.maximum(gpu_busy_time, kernel_count * launch_overhead)
