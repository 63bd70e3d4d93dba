// SPDX-License-Identifier: MIT
/* The output files of every command: written under a temporary name and
 * renamed into place, or dropped. The one file of the CLI that knows
 * hwpriv_ofile. */
#include "cli.h"

int cli_ofile_open(const char *path, struct hwpriv_ofile **of, FILE **f)
{
	int err = hwpriv_ofile_open(path, of);

	if (!err)
		*f = hwpriv_ofile_stream(*of);
	return err;
}

int cli_ofile_end(struct hwpriv_ofile *of, bool keep)
{
	if (!of)
		return 0;
	if (keep)
		return hwpriv_ofile_commit(of);
	hwpriv_ofile_abort(of);
	return 0;
}

int cli_ofile_write(struct hwpriv_ofile *of, cli_write_fn write, void *ctx)
{
	int err = write(ctx, hwpriv_ofile_stream(of));

	return cli_ofile_end(of, !err) ?: err;
}

int cli_write_file(const char *path, cli_write_fn write, void *ctx)
{
	struct hwpriv_ofile *of;
	FILE *f;
	int err = cli_ofile_open(path, &of, &f);

	return err ?: cli_ofile_write(of, write, ctx);
}
