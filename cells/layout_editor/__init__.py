"""Drawing on the plan: the tools' endpoints, their edits and the undo stack."""
