-- Patient edits carry the version they were based on (issue 33 point 3): a save based on an
-- older version is answered 409 instead of silently undoing the other person's change.
alter table patients add column version integer not null default 1;
