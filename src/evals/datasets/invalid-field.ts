// Thrown by the dataset readers at the first field that breaks DESIGN.md §7; the dataset parser turns
// it into a DatasetInvalid naming the file and the case. `path` is where in the case it is (`assert[2].value`).
export class InvalidField extends Error {
  readonly path: string;
  readonly problem: string;

  constructor(path: string, problem: string) {
    super(`${path} ${problem}`);
    this.name = 'InvalidField';
    this.path = path;
    this.problem = problem;
  }
}
