"""The PyTorch backend: the backend itself, the plain-torch BERT forward, compact copies, an export's weights."""
