#!/usr/bin/env python3
"""Checks config/hxrt.schema.json against the loader's test cases and the example configs.

The examples and cases/valid_*.json must pass the schema, cases/invalid_*.json must fail it.
An invalid case that case_errors.json marks "loader_only" is one the loader rejects for a
reason JSON Schema cannot express (two spellings of one device, a key given twice, an index
beyond an int); such a case must *pass* the schema, or the mark is wrong. The loader's side
of the same cases is config_cases_test.cpp.

Exits 77, which CTest reads as "skipped", when the jsonschema module is missing.
"""
import argparse
import json
import pathlib
import sys

SKIPPED = 77


def first_error(validator, path):
    """The schema's first complaint about the file, or None when it passes."""
    try:
        instance = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        return f"not JSON: {error}"
    error = next(iter(sorted(validator.iter_errors(instance), key=str)), None)
    if error is None:
        return None
    where = "/" + "/".join(str(part) for part in error.absolute_path)
    return f"{where}: {error.message}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", type=pathlib.Path, required=True)
    parser.add_argument("--cases", type=pathlib.Path, required=True)
    parser.add_argument("--case-errors", type=pathlib.Path, required=True)
    parser.add_argument("--examples", type=pathlib.Path, required=True)
    args = parser.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("skipped: the Python module jsonschema is missing "
              "(Debian: apt-get install python3-jsonschema)")
        return SKIPPED

    schema = json.loads(args.schema.read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    case_errors = json.loads(args.case_errors.read_text())

    problems = []
    must_pass = sorted(args.examples.glob("*.json")) + sorted(args.cases.glob("valid_*.json"))
    for path in must_pass:
        error = first_error(validator, path)
        if error is not None:
            problems.append(f"{path.name}: the loader accepts it, the schema does not: {error}")
    invalid = sorted(args.cases.glob("invalid_*.json"))
    for path in invalid:
        entry = case_errors.get(path.name)
        if entry is None:
            problems.append(f"{path.name}: no entry in {args.case_errors.name}")
            continue
        error = first_error(validator, path)
        if "loader_only" in entry:
            if error is not None:
                problems.append(f"{path.name}: marked loader_only, but the schema rejects it "
                                f"too ({error}); remove the mark")
        elif error is None:
            problems.append(f"{path.name}: the loader rejects it ({entry['error']}), "
                            "the schema accepts it")

    loader_only = sum("loader_only" in case_errors.get(p.name, {}) for p in invalid)
    print(f"{len(must_pass)} files that must pass, {len(invalid) - loader_only} that must fail, "
          f"{loader_only} the loader alone rejects")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
