"""Policies over HTTP: a model served elsewhere (vLLM, SGLang, TGI, ``transformers serve``,
Ollama) or a vendor's computer-use API.

* :mod:`.openai_chat`: ``openai:MODEL``, any OpenAI-compatible chat endpoint;
* :mod:`.anthropic_computer`: ``anthropic:MODEL``, Anthropic's computer-use tool;
* :mod:`.openai_computer`: ``openai-cua:MODEL``, OpenAI's Responses API computer tool;
* :mod:`.calls`: timeouts, bounded retries, what each failure means;
* :mod:`.concurrency`: at most N requests in flight per endpoint, across workers;
* :mod:`.pricing`: what a call costs; :mod:`.settings`: the spec options and the key.

None of this imports torch: a machine that only calls endpoints needs no model weights.
"""
