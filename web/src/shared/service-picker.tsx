import type { ReactNode } from 'react';
import type { FieldErrors } from './user-errors.js';

/**
 * Checkboxes choosing status-page services, as one field: `field` is the REST path the API's
 * userErrors name (`services` for an incident, `cards` for a page), so its messages show here.
 */
export function ServicePicker({ legend, field, services, selected, onChange, errors, empty }: {
  legend: string;
  field: string;
  services: readonly { id: string; name: string }[];
  selected: readonly string[];
  onChange(selected: string[]): void;
  errors: FieldErrors;
  /** Shown instead of the checkboxes when the account has no service yet. */
  empty: ReactNode;
}) {
  const messages = errors.byField[field];
  return (
    <fieldset className="field" data-field={field} tabIndex={-1} aria-invalid={messages ? true : undefined}>
      <legend>{legend}</legend>
      {services.length === 0 ? <p className="muted">{empty}</p> : (
        <div className="checkbox-grid">
          {services.map((s) => (
            <label key={s.id} className="checkbox">
              <input type="checkbox" checked={selected.includes(s.id)}
                onChange={(e) => onChange(e.target.checked ? [...selected, s.id] : selected.filter((x) => x !== s.id))} />
              {s.name}
            </label>
          ))}
        </div>
      )}
      {messages && <p className="field-error" role="alert" data-error-for={field}>{messages.join(' ')}</p>}
    </fieldset>
  );
}
