"""The expert's network under CPython with numpy (training, arenas, the command line, the tests), registered as a
backend of :func:`splendor.ai.netrun.runner_for` when imported. The page and its worker run the WebAssembly kernel
and never have numpy."""

from ..ai import netrun


class NumpyRunner:
    """The network with numpy (float32), for CPython."""

    name = "numpy"

    def __init__(self, net):
        import numpy as np

        self.np = np
        self.layers = [(np.asarray(W, np.float32).reshape(b, a).T.copy(), np.asarray(bias, np.float32), relu)
                       for (a, b), (W, bias, relu) in zip(net.shapes, net.layers)]

    def forward(self, x):
        return self.forward_batch(x).tolist()

    def forward_batch(self, rows):
        """The outputs of one input (a list) or of a batch (a list of lists): a numpy array of the same rank."""
        np = self.np
        h = np.asarray(rows, np.float32)
        for W, b, relu in self.layers:
            h = h @ W + b
            if relu:
                np.maximum(h, 0.0, out=h)
        return h


netrun.register_backend("numpy", NumpyRunner, 1)
