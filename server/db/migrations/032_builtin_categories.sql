-- The spec's seven built-in annotation categories (spec 2 §3, issue 32.11): Apnea, Desaturation
-- and Hypoapnea were there; Movement, Central Apnea, Obstructive Apnea and Irregularities join
-- them, so every label the customized index counts can be scored. Built-ins belong to no patient
-- or practice, so these rows serve every practice, existing and new. Each built-in gets a stable
-- code the screens translate its name by (the label stays the spec's English name, which the
-- customized index counts by).

alter table annotation_categories add column code text;
create unique index annotation_categories_code on annotation_categories (code) where code is not null;

update annotation_categories set code = 'apnea' where label_id = 1 and type = 'built-in';
update annotation_categories set code = 'desaturation' where label_id = 2 and type = 'built-in';
update annotation_categories set code = 'hypopnea' where label_id = 3 and type = 'built-in';

insert into annotation_categories (label_id, label, color_code, type, code) overriding system value values
  (4, 'Movement', '#82E0AA', 'built-in', 'movement'),
  (5, 'Central Apnea', '#BB8FCE', 'built-in', 'central_apnea'),
  (6, 'Obstructive Apnea', '#F1948A', 'built-in', 'obstructive_apnea'),
  (7, 'Irregularities', '#AEB6BF', 'built-in', 'irregularities');
