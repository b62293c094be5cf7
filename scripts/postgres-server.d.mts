export declare const postgresBinDir: () => string | null;
export declare const MISSING_SERVER: string;
export declare const startPostgres: (options?: { durable?: boolean; templateCache?: string | null }) => {
  url: string;
  stop: () => void;
};
