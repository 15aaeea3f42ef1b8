"""Understanding + evidence → the answer a person reads: every route's reply, the composer, the LLM
prompt and the guard that checks every claim."""
