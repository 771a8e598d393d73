import { describe, expect, it } from 'vitest';
import { isSoftwareRenderer } from '../../src/charts/gl/canvas';

// Unmasked renderer names as browsers report them (WEBGL_debug_renderer_info): the CPU
// rasterisers get the low-latency context (decision 0998), GPUs keep the synchronised one.
describe('the WebGL renderer kind', () => {
  it('takes CPU rasterisers for software', () => {
    for (const name of [
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      'Google SwiftShader',
      'llvmpipe (LLVM 15.0.6, 256 bits)',
      'ANGLE (Mesa, llvmpipe (LLVM 15.0.7 256 bits), OpenGL 4.5)',
      'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)',
    ])
      expect(isSoftwareRenderer(name), name).toBe(true);
  });

  it('leaves GPUs alone', () => {
    for (const name of [
      'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'ANGLE (Apple, ANGLE Metal Renderer: Apple M1, Unspecified Version)',
      'Mesa Intel(R) Xe Graphics (TGL GT2)',
      'WebKit WebGL',
    ])
      expect(isSoftwareRenderer(name), name).toBe(false);
  });
});
