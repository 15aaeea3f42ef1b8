"""Glossary chunks → FAISS + BM25 index; question → ranked, fused glossary hits and scope."""
