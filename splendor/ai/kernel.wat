;; The expert's network kernel: one dense layer of a batch, in WebAssembly with 128-bit SIMD.
;;
;;   dense(W, b, x, y, n, m, rows, relu):  y[r*m + j] = f(b[j] + sum_i W[j*n + i] * x[r*n + i])
;;
;; for r < rows, j < m, i < n; f is max(0, .) when relu is 1, the identity when 0. Pointers are byte offsets into
;; the exported memory, f32 little-endian, 16-byte aligned; n is a multiple of 8. The caller (splendor/ai/netrun.py)
;; grows the memory and places the weights; tools/build_kernel.mjs assembles this file into splendor/ai/kernel_wasm.py.
(module
  (memory (export "mem") 1)
  (func (export "dense")
    (param $W i32) (param $b i32) (param $x i32) (param $y i32)
    (param $n i32) (param $m i32) (param $rows i32) (param $relu i32)
    (local $r i32) (local $j i32) (local $i i32) (local $row i32) (local $xr i32) (local $end i32)
    (local $acc0 v128) (local $acc1 v128) (local $s f32)
    ;; n in bytes
    (local.set $n (i32.shl (local.get $n) (i32.const 2)))
    (block $rows_done
      (loop $each_row
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $xr (i32.add (local.get $x) (i32.mul (local.get $r) (local.get $n))))
        (local.set $row (local.get $W))
        (local.set $j (i32.const 0))
        (block $outs_done
          (loop $each_out
            (br_if $outs_done (i32.ge_u (local.get $j) (local.get $m)))
            (local.set $acc0 (v128.const f32x4 0 0 0 0))
            (local.set $acc1 (v128.const f32x4 0 0 0 0))
            (local.set $i (i32.const 0))
            (block $dot_done
              (loop $dot
                (br_if $dot_done (i32.ge_u (local.get $i) (local.get $n)))
                (local.set $acc0
                  (f32x4.add (local.get $acc0)
                    (f32x4.mul (v128.load (i32.add (local.get $row) (local.get $i)))
                               (v128.load (i32.add (local.get $xr) (local.get $i))))))
                (local.set $acc1
                  (f32x4.add (local.get $acc1)
                    (f32x4.mul (v128.load offset=16 (i32.add (local.get $row) (local.get $i)))
                               (v128.load offset=16 (i32.add (local.get $xr) (local.get $i))))))
                (local.set $i (i32.add (local.get $i) (i32.const 32)))
                (br $dot)))
            (local.set $acc0 (f32x4.add (local.get $acc0) (local.get $acc1)))
            (local.set $s
              (f32.add
                (f32.add (f32x4.extract_lane 0 (local.get $acc0)) (f32x4.extract_lane 1 (local.get $acc0)))
                (f32.add (f32x4.extract_lane 2 (local.get $acc0)) (f32x4.extract_lane 3 (local.get $acc0)))))
            (local.set $s (f32.add (local.get $s)
                                   (f32.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))))
            (if (local.get $relu)
              (then (local.set $s (f32.max (local.get $s) (f32.const 0)))))
            (f32.store
              (i32.add (local.get $y)
                       (i32.shl (i32.add (i32.mul (local.get $r) (local.get $m)) (local.get $j)) (i32.const 2)))
              (local.get $s))
            (local.set $row (i32.add (local.get $row) (local.get $n)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $each_out)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row)))))
