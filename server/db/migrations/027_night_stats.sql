-- Per-night statistics kept as rows (issue 18 point 4): beside each stored analysis its KPIs and
-- its trend indices, small columns the dashboard, triage table, notifications and trend read
-- instead of the whole analysis. Written with the analysis (when a night is stored, imported,
-- merged, corrected or its practice's settings change), dropped with it.
alter table night_analyses add column kpis jsonb;
alter table night_analyses add column indices jsonb;
update night_analyses set kpis = result -> 'kpis';
-- indices of analyses stored before this migration are derived from their result on first read.
