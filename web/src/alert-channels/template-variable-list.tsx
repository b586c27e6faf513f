import { useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';

// The server's own list (src/domain/webhook-template-variables.ts): what the renderer supports, never a copy.
const VariablesQuery = graphql(`
  query ConsoleWebhookTemplateVariables { webhookTemplateVariables { name description } }
`);

/** The variables a webhook template may use, as the server renders them. */
export function TemplateVariableList() {
  const [{ data, error }] = useQuery({ query: VariablesQuery });
  if (error && !data) return <p className="muted">The template variables could not be loaded: {error.message}</p>;
  if (!data) return null;
  return (
    <details className="template-variables">
      <summary>Template variables</summary>
      <p className="muted">Write <code>{'{{NAME}}'}</code> in the URL, headers, query parameters or body; <code>{'{{json NAME}}'}</code> writes a JSON value. Your account variables work by their key too.</p>
      <dl aria-label="Webhook template variables">
        {data.webhookTemplateVariables.map((v) => (
          <div key={v.name} className="template-variable">
            <dt className="mono">{`{{${v.name}}}`}</dt>
            <dd>{v.description}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
