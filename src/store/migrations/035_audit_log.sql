-- The audit log (issue 29): who changed which resource, when and from where. Rows are written by a
-- trigger on each audited table, in the transaction of the change itself, so no write path (REST,
-- GraphQL, console, CLI, deploys, the runner, a future one) can change a resource unrecorded, and a
-- rolled-back change leaves no entry. The application names the actor with
-- `set_config('lookout.actor', <json>, true)` in that transaction (store/audit-actor-scope.ts);
-- without it the change is the system's (runner and background jobs).
--
-- Only field NAMES are kept, never values: a secret changed shows as `value` or `secrets.url`.
-- No foreign key to accounts: an entry outlives what it describes (retention deletes it).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL,
  -- The writing transaction: one entry per resource per transaction (the unique index below).
  tx bigint NOT NULL DEFAULT txid_current(),
  at timestamptz NOT NULL DEFAULT now(),
  actor_kind text NOT NULL,
  actor_id text,
  actor_label text NOT NULL,
  via text NOT NULL,
  ip text,
  action text NOT NULL,
  resource_type text NOT NULL,
  resource_id text NOT NULL,
  fields text[] NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX audit_log_one_per_change ON audit_log (tx, account_id, resource_type, resource_id);
CREATE INDEX audit_log_by_account ON audit_log (account_id, id DESC);
CREATE INDEX audit_log_by_resource ON audit_log (account_id, resource_type, resource_id, id DESC);
CREATE INDEX audit_log_by_actor ON audit_log (account_id, actor_id, id DESC);
CREATE INDEX audit_log_by_time ON audit_log (at);

-- A column's name as the API spells fields: group_id -> groupId.
CREATE FUNCTION lookout_audit_field(col text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN ord = 1 THEN part ELSE initcap(part) END, '' ORDER BY ord)
  FROM unnest(string_to_array(col, '_')) WITH ORDINALITY AS p(part, ord)
$$;

-- The names of what a row change touched: columns (camelCase), and for jsonb objects their top-level
-- keys (`data` holds the accepted document, whose keys are the API's fields: reported bare; others as
-- `column.key`). `scope` is '' (every column), 'only:a,b' or 'skip:a,b'. Never a value.
CREATE FUNCTION lookout_audit_changed(old_row jsonb, new_row jsonb, scope text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  skipped text[] := ARRAY['id', 'account_id', 'created_at', 'updated_at', 'change_xid'];
  watched text[];
  changed text[] := '{}';
  col text;
  k text;
  before jsonb;
  after jsonb;
BEGIN
  IF scope LIKE 'only:%' THEN watched := string_to_array(substr(scope, 6), ',');
  ELSIF scope LIKE 'skip:%' THEN skipped := skipped || string_to_array(substr(scope, 6), ',');
  END IF;
  FOR col IN SELECT jsonb_object_keys(coalesce(new_row, old_row)) LOOP
    CONTINUE WHEN col = ANY (skipped) OR (watched IS NOT NULL AND NOT col = ANY (watched));
    before := CASE WHEN old_row IS NULL THEN 'null'::jsonb ELSE old_row -> col END;
    after := CASE WHEN new_row IS NULL THEN 'null'::jsonb ELSE new_row -> col END;
    CONTINUE WHEN before = after;
    IF jsonb_typeof(before) IN ('object', 'null') AND jsonb_typeof(after) IN ('object', 'null')
       AND 'object' IN (jsonb_typeof(before), jsonb_typeof(after)) THEN
      FOR k IN SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(before) = 'object' THEN before ELSE '{}' END)
               UNION SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(after) = 'object' THEN after ELSE '{}' END) LOOP
        IF (before -> k) IS DISTINCT FROM (after -> k) THEN
          changed := changed || CASE WHEN col = 'data' THEN k ELSE lookout_audit_field(col) || '.' || k END;
        END IF;
      END LOOP;
    ELSE
      changed := changed || lookout_audit_field(col);
    END IF;
  END LOOP;
  RETURN ARRAY(SELECT DISTINCT f FROM unnest(changed) AS f ORDER BY f);
END
$$;

-- AFTER ROW trigger of every audited table. Arguments: resource types and the columns holding their
-- ids ('check|check_group', 'check_id|group_id': the first non-null id names the resource), the
-- column scope (see lookout_audit_changed) and, for a child table, the one field of its parent it is
-- (its rows are then an update of that parent: subscriptions are a check's alertChannelSubscriptions).
-- Several row changes of one resource in one transaction merge into one entry; an update that
-- changed no audited column writes none; rows removed by a cascade (trigger depth > 1) are part of
-- the change that removed their parent, which is recorded.
CREATE FUNCTION lookout_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  row_data jsonb := coalesce(new_row, old_row);
  types text[] := string_to_array(TG_ARGV[0], '|');
  id_columns text[] := string_to_array(TG_ARGV[1], '|');
  child_field text := NULLIF(TG_ARGV[3], '');
  account text := row_data ->> (CASE WHEN TG_TABLE_NAME = 'accounts' THEN 'id' ELSE 'account_id' END);
  r_type text;
  r_id text;
  changed text[];
  act text := CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END;
  actor jsonb := NULLIF(current_setting('lookout.actor', true), '')::jsonb;
BEGIN
  IF pg_trigger_depth() > 1 OR account IS NULL THEN RETURN NULL; END IF;
  FOR i IN 1 .. cardinality(id_columns) LOOP
    r_id := row_data ->> id_columns[i];
    IF r_id IS NOT NULL THEN
      r_type := types[least(i, cardinality(types))];
      EXIT;
    END IF;
  END LOOP;
  IF r_id IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' AND child_field IS NULL THEN
    changed := '{}';
  ELSE
    changed := lookout_audit_changed(old_row, new_row, coalesce(TG_ARGV[2], ''));
    IF TG_OP = 'UPDATE' AND cardinality(changed) = 0 THEN RETURN NULL; END IF;
  END IF;
  IF child_field IS NOT NULL THEN
    act := 'update';
    changed := ARRAY[child_field];
  END IF;
  INSERT INTO audit_log AS a (account_id, actor_kind, actor_id, actor_label, via, ip, action, resource_type, resource_id, fields)
  VALUES (account::uuid, coalesce(actor ->> 'kind', 'system'), actor ->> 'id', coalesce(actor ->> 'label', 'Lookout'),
          coalesce(actor ->> 'via', 'runner'), actor ->> 'ip', act, r_type, r_id, changed)
  ON CONFLICT (tx, account_id, resource_type, resource_id) DO UPDATE SET
    action = CASE WHEN 'delete' IN (a.action, EXCLUDED.action) THEN 'delete'
                  WHEN 'create' IN (a.action, EXCLUDED.action) THEN 'create' ELSE 'update' END,
    fields = CASE WHEN 'delete' IN (a.action, EXCLUDED.action) THEN '{}'::text[]
                  ELSE ARRAY(SELECT DISTINCT f FROM unnest(a.fields || EXCLUDED.fields) AS f ORDER BY f) END;
  RETURN NULL;
END
$$;

CREATE TRIGGER accounts_audit AFTER UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('account', 'id');
CREATE TRIGGER api_keys_audit AFTER INSERT OR UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('api_key', 'id', 'skip:key_hash,last_used_at');
CREATE TRIGGER checks_audit AFTER INSERT OR UPDATE OR DELETE ON checks FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('check', 'id');
CREATE TRIGGER check_groups_audit AFTER INSERT OR UPDATE OR DELETE ON check_groups FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('check_group', 'id');
CREATE TRIGGER alert_channels_audit AFTER INSERT OR UPDATE OR DELETE ON alert_channels FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('alert_channel', 'id');
CREATE TRIGGER alert_channel_subscriptions_audit AFTER INSERT OR UPDATE OR DELETE ON alert_channel_subscriptions FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('check|check_group', 'check_id|group_id', '', 'alertChannelSubscriptions');
CREATE TRIGGER environment_variables_audit AFTER INSERT OR UPDATE OR DELETE ON environment_variables FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('variable', 'key');
CREATE TRIGGER snippets_audit AFTER INSERT OR UPDATE OR DELETE ON snippets FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('snippet', 'id');
CREATE TRIGGER private_locations_audit AFTER INSERT OR UPDATE OR DELETE ON private_locations FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('private_location', 'id', 'skip:last_seen');
CREATE TRIGGER client_certificates_audit AFTER INSERT OR UPDATE OR DELETE ON client_certificates FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('client_certificate', 'id');
CREATE TRIGGER check_triggers_audit AFTER INSERT OR DELETE ON check_triggers FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('check', 'check_id', '', 'trigger');
CREATE TRIGGER check_group_triggers_audit AFTER INSERT OR DELETE ON check_group_triggers FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('check_group', 'group_id', '', 'trigger');
CREATE TRIGGER public_badges_audit AFTER INSERT OR DELETE ON public_badges FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('check|check_group', 'check_id|group_id', '', 'publicBadge');
CREATE TRIGGER status_pages_audit AFTER INSERT OR UPDATE OR DELETE ON status_pages FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('status_page', 'id');
CREATE TRIGGER status_page_services_audit AFTER INSERT OR UPDATE OR DELETE ON status_page_services FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('status_page_service', 'id');
CREATE TRIGGER status_page_incidents_audit AFTER INSERT OR UPDATE OR DELETE ON status_page_incidents FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('status_page_incident', 'id');
CREATE TRIGGER status_page_incident_updates_audit AFTER INSERT OR UPDATE OR DELETE ON status_page_incident_updates FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('status_page_incident', 'incident_id', '', 'incidentUpdates');
CREATE TRIGGER maintenance_windows_audit AFTER INSERT OR UPDATE OR DELETE ON maintenance_windows FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('maintenance_window', 'id', 'skip:planned_until');
-- Occurrences and their updates are the window's: planned with it, moved by hand or by the clock.
CREATE TRIGGER maintenances_audit AFTER INSERT OR UPDATE OR DELETE ON maintenances FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('maintenance_window', 'window_id', 'only:status,starts_at,ends_at', 'maintenances');
CREATE TRIGGER maintenance_updates_audit AFTER INSERT OR DELETE ON maintenance_updates FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('maintenance_window', 'window_id', '', 'maintenanceUpdates');
CREATE TRIGGER dashboards_audit AFTER INSERT OR UPDATE OR DELETE ON dashboards FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('dashboard', 'id');
CREATE TRIGGER projects_audit AFTER INSERT OR UPDATE OR DELETE ON projects FOR EACH ROW EXECUTE FUNCTION lookout_audit_row('project', 'id');
-- The runner rewrites a check's status row with every result: only a change of state is an entry
-- (the WHEN keeps the other updates from calling the function at all).
CREATE TRIGGER check_statuses_audit_first AFTER INSERT ON check_statuses FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('check', 'check_id', '', 'status');
CREATE TRIGGER check_statuses_audit AFTER UPDATE ON check_statuses FOR EACH ROW
  WHEN (OLD.has_failures IS DISTINCT FROM NEW.has_failures OR OLD.has_errors IS DISTINCT FROM NEW.has_errors OR OLD.is_degraded IS DISTINCT FROM NEW.is_degraded)
  EXECUTE FUNCTION lookout_audit_row('check', 'check_id', 'only:has_failures,has_errors,is_degraded', 'status');

-- Members (a membership is named by its person) and invitations (migration 034).
CREATE TRIGGER memberships_audit AFTER INSERT OR UPDATE OR DELETE ON memberships FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('membership', 'user_id');
CREATE TRIGGER invitations_audit AFTER INSERT OR UPDATE OR DELETE ON invitations FOR EACH ROW
  EXECUTE FUNCTION lookout_audit_row('invitation', 'id', 'skip:token_hash');
