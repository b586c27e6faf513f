-- Status page services built from checks: the checks a service's public state and uptime bars come
-- from (the same account's, in the order shown), and whether the service opens an incident by
-- itself when its checks fail. Deleting a check or a service takes its links with it.
CREATE TABLE status_page_service_checks (
  service_id uuid NOT NULL REFERENCES status_page_services(id) ON DELETE CASCADE,
  check_id uuid NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (service_id, check_id)
);
CREATE INDEX status_page_service_checks_by_check ON status_page_service_checks (check_id);

ALTER TABLE status_page_services ADD COLUMN auto_incident boolean NOT NULL DEFAULT false;
