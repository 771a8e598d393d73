-- A night's actigraph (issue 34 point 2, decision 0982): its movement per minute, sleep and wake
-- bands and times, written with the night's analysis, so an actigraph of up to 92 nights reads
-- these rows instead of analysing and reading every night's movement channel again. Emptied with
-- the analysis (a correction, a file joining the night, new settings or detectors).
alter table night_analyses add column actigraph jsonb;
