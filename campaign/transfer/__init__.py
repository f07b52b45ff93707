"""Export and import: a campaign as one JSON document, to back it up or move it between
servers. The document holds what is needed to recreate the campaign row, its members
(matched to users by username), every snapshot with its number, and the decisions not
yet used; `file` is the newest snapshot's campaign file (the public contract of
../shared/design/campaign-file.md).

    {"export": 1,
     "campaign": {"name", "slug", "status", "kingdoms", "options", "deadlines", "map_name",
                  "map", "join_code", "deadline", "paused_with", "created_at", "public",
                  "deadline_days", "time_zone", "letters", "names"},
     "members": [{"username", "kingdom", "kingdom_name", "colour", "heraldry", "is_admin",
                  "joined_at"}],
     "snapshots": [{"number", "reason", "defaults", "data", "decisions", "created_by",
                    "created_at"}],
     "submissions": [{"kingdom", "kind", "payload", "snapshot", "ready", "submitted_by",
                      "created_at", "updated_at"}],
     "correspondences": [{"herald", "kingdoms", "created_at",
                          "letters": [{"kingdom", "writer", "text", "written_at",
                                       "edited_at"}],
                          "read": [{"kingdom", "letters"}]}],
     "army_lists": [{"kingdom", "name", "points", "race", "text", "created_at",
                     "updated_at"}],
     "attached_lists": [{"battle", "kingdom", "name", "points", "race", "text",
                         "attached_by", "attached_at"}],
     "battle_reports": [{"battle", "kingdom", "text", "written_by", "hidden_at",
                         "created_at", "updated_at",
                         "photos": [{"content_type", "data", "added_by", "created_at"}]}],
     "file": <the newest snapshot's data, or null before the start>}

Times are ISO 8601 with their offset; `paused_with` is an ISO 8601 duration. An import is
checked whole before anything is written, and written in one transaction: a bad document
changes nothing. The audit trail, the reminders and the decisions already used (they are
in each snapshot's `decisions`) are not exported.

What the players say and show (issue 28) comes after the submissions; a document without
these parts (an older export) imports with none. Each names kingdoms by their ids, which
must be the campaign's (those of the newest campaign file, or the players' before the
start), and users by username (a user missing here leaves the writer unknown, as for a
deleted account). `campaign.letters` is the campaign's choice of who writes to whom (on,
herald or none). `campaign.names` is the campaign's gazetteer (campaign.gazetteer: its
places' and units' names, which the campaign file does not hold); a started campaign
imported without it (an older export) has its places named anew from its map and seed.

- `correspondences`: the herald's (`herald` true, `kingdoms` empty: every member's) and
  those between the `kingdoms` listed (two or more), each once. Its `letters` are in the
  order written (`written_at` is needed); a letter's `kingdom` is its writer's, one of the
  correspondence's. A read mark says how many of its letters, the first ones, the kingdom
  has read (`letters`: 0 to all of them).
- `army_lists`: the lists of each kingdom's book.
- `attached_lists` and `battle_reports`: each names its `battle` by its number in the
  newest campaign file's `battles` (the first is 1) and its side by its `kingdom`, one of
  the battle's two, at most one of each for a side. `hidden_at` is when the admin hid the
  report (null: it is shown).
- A photograph's `data` is the copy kept of it (at most 1,600 pixels), in base64, and
  `content_type` its type (image/jpeg or image/webp). An import develops it again as an
  upload is developed (battles.photos: read as a picture or refused, drawn again, its
  thumbnail made anew), so that nothing but a picture drawn here is kept: its bytes change
  on each move, not what it shows.

The lists and reports are the battles app's: it writes and reads them (battles.transfer)
when this module announces `campaign_exporting` and `campaign_importing`. A kingdom no
longer in the campaign (its player left before the start) has its letters, read marks and
lists left out of the export."""
