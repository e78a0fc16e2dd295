// Whole-process floor for the benchmark: `node dist/bench/read-every-file-main.js DIR`.
import { readEveryFile } from './read-every-file';

process.stdout.write(JSON.stringify(readEveryFile(process.argv[2] ?? '.')) + '\n');
