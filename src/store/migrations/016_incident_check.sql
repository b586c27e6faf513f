-- The check whose triggerIncident opened an incident (null for incidents written by hand, and once the
-- check is deleted): GraphQL's Incident.check and TriggerIncident.openIncident read it.
ALTER TABLE status_page_incidents ADD COLUMN check_id uuid REFERENCES checks(id) ON DELETE SET NULL;
