// The view of i23_view_ctor_ok.cu, but every thread of a block column writes the row its block starts at: the
// threads of one block that differ only in threadIdx.y write one element.
// expect: race.global
// kopt: launch scale grid=(16, 64) block=(32, 4) args=(m, 64, 512)
class MatrixView {
 public:
  float *data;
  const int width;
  __device__ MatrixView(float *data, int height, int width) : data(data), width(width) {}
  __device__ float *item_ptr(int row, int column) const { return &data[row * width + column]; }
};

__global__ void scale(float *m, int height, int width) {
  MatrixView v(m, height, width);
  int row = blockIdx.y * 4;
  int column = blockIdx.x * 32 + threadIdx.x;
  if (row < height && column < width) *v.item_ptr(row, column) = threadIdx.y;
}
