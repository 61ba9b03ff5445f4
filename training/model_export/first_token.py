"""An encoder-decoder as a two-way classifier: the logits of its two answer tokens at the first step.

MiniCheck-Flan-T5 answers "1" (supported) or "0" (unsupported); its score is the softmax over those
two tokens' logits at the first decoding step, from the decoder start token. Exported this way the
graph takes input_ids and attention_mask and returns logits of shape (batch, 2), columns
[unsupported, supported], so it runs through the same backend and batcher as a classifier and no
generation loop runs at serving time. Used at export and for the parity check (needs PyTorch).
"""

from __future__ import annotations

import torch


class FirstTokenLogits(torch.nn.Module):
    def __init__(self, model, start_token: int, tokens: list[int]):
        super().__init__()
        self.model = model
        self.start_token = int(start_token)
        self.register_buffer("tokens", torch.tensor(tokens, dtype=torch.long), persistent=False)

    @property
    def config(self):
        return self.model.config

    def forward(self, input_ids, attention_mask):
        start = torch.zeros_like(input_ids[:, :1]) + self.start_token  # one start token per row (dynamic batch)
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, decoder_input_ids=start,
                         use_cache=False, return_dict=True)
        return out.logits[:, 0].index_select(-1, self.tokens)
