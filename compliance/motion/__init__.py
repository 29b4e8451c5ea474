"""The Motion tab (issue 32): a cell's robot programs, each one's path judged
segment by segment where people are, by the rules, on the plan."""
