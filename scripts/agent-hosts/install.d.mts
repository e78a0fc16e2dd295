export declare const HOSTS: Record<'claude' | 'copilot', { pkg: string; version: string }>;
export declare function cacheDir(): string;
export declare function installHost(name: 'claude' | 'copilot'): Promise<{ executable: string; version: string }>;
