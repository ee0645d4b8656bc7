"""What every part of leagues builds on: who may see and do what (access), the audit trail (audit), the shared reads
of players, clubs and results (selectors) and the shared forms (forms)."""
