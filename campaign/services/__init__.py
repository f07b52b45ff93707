"""Every write to a campaign goes through these services. Each one is a transaction; those
that change the campaign's state lock its row and check the snapshot they started from,
so two advances never both land and no submission is lost.

A module by capability: what they all read (common), the decisions gathered for the engine
(inputs), advancing, setting a campaign up, its members, a kingdom's submissions, battle
entries and the admin's controls. Callers import the module of the capability they use
(`from campaign.services import submissions` ... `submissions.save(...)`): the package
re-exports nothing."""
