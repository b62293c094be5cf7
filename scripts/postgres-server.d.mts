export declare const postgresBinDir: () => string | null;
export declare const MISSING_SERVER: string;
export declare const startPostgres: (options?: { durable?: boolean; templateCache?: string | null }) => {
  url: string;
  /** settles once the server accepts connections; rejects with why it could not start */
  ready: Promise<void>;
  stop: () => Promise<void>;
};
