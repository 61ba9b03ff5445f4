"""Model export: a Hugging Face checkpoint to a servable ONNX directory, its kind, its card and its int8 variants. A tool: nothing the consumer imports."""
