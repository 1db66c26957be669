// Host code for i23g_driver_out_param_oob.cu, i23g_driver_out_param_ok.cu and i23g_driver_guarded_ok.cu (driver
// API, kernels loaded by name).
static void i23g_load_rows(CUmodule mod, CUfunction *fn) {
  cuModuleGetFunction(fn, mod, "i23g_drv_rows");
}

void i23g_run_rows(CUmodule mod, void **args) {
  CUfunction rows;
  i23g_load_rows(mod, &rows);
  cuLaunchKernel(rows, 8, 1, 1, 64, 2, 1, 0, 0, args, 0);
}

static CUresult i23g_load_rows_fits(CUmodule mod, CUfunction *out) {
  CUfunction found;
  CUresult r = cuModuleGetFunction(&found, mod, "i23g_drv_rows_fits");
  *out = found;
  return r;
}

void i23g_run_rows_fits(CUmodule mod, void **args) {
  CUfunction rows;
  if (i23g_load_rows_fits(mod, &rows) != 0) return;
  cuLaunchKernel(rows, 8, 1, 1, 64, 2, 1, 0, 0, args, 0);
}

static void i23g_run_tiles(CUmodule mod, void **args, int bs) {
  CUfunction tile;
  if (bs == 16) {
    cuModuleGetFunction(&tile, mod, "i23g_drv_tile16");
  } else {
    cuModuleGetFunction(&tile, mod, "i23g_drv_tile32");
  }
  dim3 threads(bs, bs);
  cuLaunchKernel(tile, 1, 1, 1, threads.x, threads.y, threads.z, 0, 0, args, 0);
}

void i23g_tiles(CUmodule mod, void **args) {
  i23g_run_tiles(mod, args, 16);
  i23g_run_tiles(mod, args, 32);
}
