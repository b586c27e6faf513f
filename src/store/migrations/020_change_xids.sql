-- Which transaction last wrote a check or group. The scheduler follows committed changes by
-- transaction id rather than by timestamp: a row's updated_at is its transaction's start, so a
-- transaction that began before the scheduler's watermark but committed after it was never seen
-- (a check turned off kept running until a restart). Every transaction not committed at a
-- snapshot has an id at or above that snapshot's xmin, so reading "change_xid >= previous xmin"
-- misses none (and re-reads a few, which is harmless).
ALTER TABLE checks ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE check_groups ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();

CREATE FUNCTION lookout_touch_change_xid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END
$$;

CREATE TRIGGER checks_change_xid BEFORE UPDATE ON checks FOR EACH ROW EXECUTE FUNCTION lookout_touch_change_xid();
CREATE TRIGGER check_groups_change_xid BEFORE UPDATE ON check_groups FOR EACH ROW EXECUTE FUNCTION lookout_touch_change_xid();
