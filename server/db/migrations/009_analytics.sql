-- Clinical analytics: per-physician settings, the Hypoapnea category, cached night analyses.

alter table physician_preferences add column desaturation_rule smallint not null default 3 check (desaturation_rule in (3, 4));
alter table physician_preferences add column rii_divisor text not null default 'TBT' check (rii_divisor in ('GSD', 'TST', 'TBT', 'TBR'));

insert into annotation_categories (label_id, label, color_code, type) overriding system value values
  (3, 'Hypoapnea', '#7FB3D5', 'built-in');

-- The analysis of a night under given settings (desaturation rule, RII divisor), kept until the night changes.
create table night_analyses (
  recording_id integer not null references recordings (id) on delete cascade,
  params text not null,
  engine_version text not null,
  result jsonb not null,
  computed_at timestamptz not null default now(),
  primary key (recording_id, params)
);
