/** Copies `relDir` (relative to the repository) as git has it to `dest`, which must not exist or be empty. */
export declare function copyTracked(relDir: string, dest: string): void;
