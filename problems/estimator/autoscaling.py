"""Autoscaling: cold-start time of a replica, and the headroom needed to ride out a load ramp.

A new replica serves nothing until its weights are loaded (bytes over the storage or network
bandwidth that feeds them) and the engine has initialised (CUDA context, graph capture, KV cache
allocation, warm-up). While it starts, load keeps rising: with a ramp of r requests/s per second
and a provisioning time T, demand grows by r·T before the new capacity arrives, so that much
capacity must already be running as headroom.

References
----------
Standard capacity arithmetic; measured start-up components in e.g. "ServerlessLLM" (Fu et al.,
OSDI 2024), which reports loading the checkpoint as the dominant cost.
"""

import numpy as np

from . import _validate as check
from .memory import weight_bytes


def cold_start_time(model, weight_format, load_bandwidth, initialization_time=0.0):
    """Seconds from starting a replica to serving: load the weights, then initialise.

    Parameters
    ----------
    model : Model
    weight_format : NumberFormat
    load_bandwidth : number or array
        Bandwidth feeding the weights to the GPUs [B/s] (local NVMe ~ 3-7e9 per drive; 100 Gb
        network storage 12.5e9; host-memory cache over PCIe 5 ~ 50e9).
    initialization_time : number or array, default 0
        Engine start-up after loading [s] (tens of seconds with CUDA-graph capture).

    Returns
    -------
    Time [s] = weight bytes / load bandwidth + initialisation.
    """
    check.positive("load_bandwidth", load_bandwidth, check.MAX_BANDWIDTH)
    check.non_negative("initialization_time", initialization_time, check.MAX_SECONDS)
    return weight_bytes(model, weight_format) / load_bandwidth + initialization_time


def headroom_replicas(load_ramp_rate, provisioning_time, replica_throughput):
    """Spare replicas to keep running so a load ramp is absorbed while new ones start.

    Parameters
    ----------
    load_ramp_rate : number or array
        How fast demand grows [requests/s per second].
    provisioning_time : number or array
        Time from the scaling decision to a new replica serving (detection plus cold start) [s].
    replica_throughput : number or array
        Requests per second one replica sustains [requests/s].

    Returns
    -------
    Replicas [replicas] = ceil(ramp × provisioning time / throughput).
    """
    check.non_negative("load_ramp_rate", load_ramp_rate, check.MAX_RATE)
    check.non_negative("provisioning_time", provisioning_time, check.MAX_SECONDS)
    check.positive("replica_throughput", replica_throughput, check.MAX_RATE)
    return np.ceil(load_ramp_rate * provisioning_time / replica_throughput)
