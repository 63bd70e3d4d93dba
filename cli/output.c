// SPDX-License-Identifier: MIT
/* The output files of every command: written under a temporary name and
 * renamed into place, or dropped. The one file of the CLI that knows
 * hwp_ofile. */
#include "cli.h"

int cli_ofile_open(const char *path, struct hwp_ofile **of, FILE **f)
{
	int err = hwp_ofile_open(path, of);

	if (!err)
		*f = hwp_ofile_stream(*of);
	return err;
}

int cli_ofile_end(struct hwp_ofile *of, bool keep)
{
	if (!of)
		return 0;
	if (keep)
		return hwp_ofile_commit(of);
	hwp_ofile_abort(of);
	return 0;
}

int cli_ofile_write(struct hwp_ofile *of, cli_write_fn write, void *ctx)
{
	int err = write(ctx, hwp_ofile_stream(of));

	return cli_ofile_end(of, !err) ?: err;
}

int cli_write_file(const char *path, cli_write_fn write, void *ctx)
{
	struct hwp_ofile *of;
	FILE *f;
	int err = cli_ofile_open(path, &of, &f);

	return err ?: cli_ofile_write(of, write, ctx);
}
