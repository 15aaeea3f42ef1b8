"""Glossary and catalogue files (corpus/) → validated, immutable records."""
