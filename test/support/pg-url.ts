/** PostgreSQL connection strings in the tests. */

/** The same server, another database: the path of a URL, whatever form its host takes. */
export const withDatabase = (url: string, database: string): string => {
  const query = url.indexOf('?');
  const [base, rest] = query === -1 ? [url, ''] : [url.slice(0, query), url.slice(query)];
  const slash = base.indexOf('/', base.indexOf('//') + 2);
  return `${slash === -1 ? base : base.slice(0, slash)}/${database}${rest}`;
};
