/** @jsxRuntime automatic */
// (The pragma keeps the JSX runtime explicit when this source is compiled from another workspace by tsx.)
export type TServiceStatus = { name: string; url: string; description: string };

/** A list of the platform's services and where they answer. */
export function StatusPanel(props: { title: string; services: TServiceStatus[] }) {
  return (
    <section aria-label={props.title}>
      <h2>{props.title}</h2>
      <ul>
        {props.services.map((service) => (
          <li key={service.name}>
            <strong>{service.name}</strong> <a href={service.url}>{service.url}</a>{' '}
            <span>{service.description}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
